import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What is kept next to an unfinished download: the URL it came from and the validator that
/// `If-Range` sends back, so that a later attempt or run can resume it.
struct ResumeRecord: Codable, Equatable {
    var url: String
    var etag: String?
    var lastModified: String?

    /// What `If-Range` carries: the strong `ETag`, else the `Last-Modified` date.
    var validator: String? { etag ?? lastModified }

    /// The record for a full response's head; `nil` when it has no usable validator (a weak
    /// `ETag` cannot be used with `If-Range`).
    init?(url: String, headers: HTTPHeaders) {
        let etag = headers["ETag"].flatMap { $0.hasPrefix("W/") || $0.isEmpty ? nil : $0 }
        let lastModified = headers["Last-Modified"].flatMap { $0.isEmpty ? nil : $0 }
        guard etag != nil || lastModified != nil else { return nil }
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// The outermost step of a resumable download, run on every attempt: it asks for the bytes
/// the file lacks, shifts progress by the bytes kept, and starts over once when the server
/// answers for the wrong range. It records the validator as soon as the head arrives, before
/// `NetworkManager.download` writes any byte of the body it guards. Outside the manager's
/// interceptors, it shows them the range it asks for: a cache answers it from a stored part.
final class ResumableDownload: Interceptor {
    private struct State {
        /// The record on disk, if any.
        var record: ResumeRecord?
        /// The bytes the current attempt resumes after (0: from the start).
        var offset: Int64 = 0
        /// What download progress adds: `offset` while a range is asked for or a 206 arrived; 0 once
        /// another 2xx answered.
        var progressBase: Int64 = 0
    }

    let file: URL
    let url: String
    let recordURL: URL
    private let state: Locked<State>

    init(file: URL, url: URL) {
        self.file = file
        self.url = url.absoluteString
        recordURL = NetworkManager.resumeRecordURL(for: file)
        var record = (try? Data(contentsOf: recordURL)).flatMap {
            try? JSONDecoder().decode(ResumeRecord.self, from: $0)
        }
        if record?.url != self.url || record?.validator == nil { record = nil }
        state = Locked(State(record: record))
    }

    /// Whether a later attempt could resume: the file has bytes and their validator is known.
    var hasResumableBytes: Bool {
        state.withLock { $0.record != nil } && (fileSize(at: file) ?? 0) > 0
    }

    func intercept(
        _ request: TransportRequest, context: InterceptorContext,
        next: @Sendable (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        let (prepared, offset) = prepare(request)
        let response = try await next(prepared)
        guard offset > 0, !answers(response, offset: offset) else {
            headArrived(status: response.status, headers: response.headers)
            return response
        }
        // The server answered for other bytes (or none): throw the partial file away and
        // ask once more for everything.
        if case .stream(let body) = response.body { body.cancel() }
        discard()
        let (fresh, _) = prepare(request)
        let retried = try await next(fresh)
        if retried.status == 206 {
            throw CourierError(
                .rangeMismatch, "the server answered a download with 206 Partial Content without being asked",
                request: fresh, status: retried.status, headers: retried.headers)
        }
        headArrived(status: retried.status, headers: retried.headers)
        return retried
    }

    /// The request for the next attempt, and the offset it resumes after.
    private func prepare(_ request: TransportRequest) -> (TransportRequest, Int64) {
        var outgoing = request
        let size = fileSize(at: file) ?? 0
        let validator: String? = state.withLock { state in
            let validator = size > 0 ? state.record?.validator : nil
            state.offset = validator == nil ? 0 : size
            // Counted from the offset as soon as the range is asked for: the body's progress can
            // arrive before this step sees the head, and a 206 is the answer asked for.
            state.progressBase = state.offset
            return validator
        }
        let offset = validator == nil ? 0 : size
        if let validator {
            outgoing.headers.replaceOrAdd(name: "Range", value: "bytes=\(offset)-")
            outgoing.headers.replaceOrAdd(name: "If-Range", value: validator)
        }
        if let report = request.progress {
            outgoing.progress = { [self] progress in
                guard progress.direction == .download else { return report(progress) }
                let base = state.withLock { $0.progressBase }
                report(
                    TransferProgress(
                        direction: .download, completed: base + progress.completed,
                        total: progress.total.map { base + $0 }))
            }
        }
        return (outgoing, offset)
    }

    /// The bytes the current attempt resumes after (0: from the start).
    var offset: Int64 { state.withLock { $0.offset } }

    /// A response head arrived, before its body: a full 2xx answer records its validator
    /// (or drops the record when it has none); a 206 makes progress count from the offset.
    private func headArrived(status: Int, headers: HTTPHeaders) {
        guard (200..<300).contains(status) else { return }
        let record = status == 206 ? nil : ResumeRecord(url: url, headers: headers)
        let write: Bool = state.withLock { state in
            if status == 206 {
                state.progressBase = state.offset
                return false
            }
            state.progressBase = 0
            state.record = record
            return true
        }
        guard write else { return }
        if let record, let data = try? JSONEncoder().encode(record) {
            try? data.write(to: recordURL, options: .atomic)
        } else {
            try? FileManager.default.removeItem(at: recordURL)
        }
    }

    /// Whether `response` fits a request for the bytes after `offset`: anything but a 206 or
    /// a 416 does (a full answer replaced the file); a 206 must start at `offset` and run to
    /// the end.
    private func answers(_ response: TransportResponse, offset: Int64) -> Bool {
        switch response.status {
        case 416: return false
        case 206:
            guard let range = ContentRange(response.headers["Content-Range"]) else { return false }
            return range.bytes.lowerBound == offset
                && (range.length.map { range.bytes.upperBound == $0 - 1 } ?? true)
        default: return true
        }
    }

    /// Removes the partial file and its record.
    func discard() {
        state.withLock { $0.record = nil }
        try? FileManager.default.removeItem(at: file)
        try? FileManager.default.removeItem(at: recordURL)
    }

    /// The download completed: its record is no longer needed.
    func finish() {
        try? FileManager.default.removeItem(at: recordURL)
    }
}
