import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkManager {
    /// Sends `endpoint` and streams the response body into a file, never holding it all in
    /// memory, resuming a download that an earlier attempt or run left unfinished.
    ///
    /// A `GET` without a `Range` header of its own is resumable (other requests write the file
    /// from its start). While it runs, a small record of the response's
    /// validator (its strong `ETag`, else its `Last-Modified`) sits next to the file, in
    /// `FILE.courier-resume`. When the file and its record are there, the next attempt (a
    /// `RetryPolicy` retry, or a later call) asks only for the missing bytes, with `Range` and
    /// `If-Range`, and progress counts from the bytes already there. The download starts over
    /// from the first byte when the server sends the whole resource instead (it changed, or
    /// ranges are not supported), answers `416`, or sends a `206` for other bytes than those
    /// asked for (a `206` to the fresh request too fails with `.rangeMismatch`). A response
    /// without a validator cannot be resumed safely: it starts over. The record is removed once
    /// the download completes.
    ///
    /// A download cut part way keeps its file and record, so that it can be resumed; one whose
    /// answer had no validator cannot be, and its file is removed. When the response is not
    /// acceptable and nothing resumable is left, or it is a 2xx that the validation refused (its
    /// content type), the file (and record) are removed and the error carries the first 64 KiB
    /// of the body. An acceptable status outside 2xx (with a
    /// `validation` that accepts one) writes its body to the file, replacing it, unless the file
    /// holds the resumable part of an unfinished download: then the file and its record are
    /// kept, and the response's `body` is that body in memory (`.data`).
    ///
    /// - Parameters:
    ///   - endpoint: what to send.
    ///   - destination: the file to write.
    ///   - progress: called as bytes move; download progress includes the bytes resumed after.
    /// - Returns: the response, whose value is `destination`.
    /// - Throws: `CourierError`.
    public func download(
        _ endpoint: some URLRequestConvertible, to destination: URL,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(CourierError) -> Response<URL> {
        try await reportingFailure {
            let prepared = try prepare(endpoint)
            let request = prepared.request
            try DownloadFile.checkWritable(destination, request: request)
            guard request.method == .get, !request.headers.contains("Range") else {
                return try await downloadWhole(
                    request, to: destination, progress: progress, prepared.validation)
            }
            return try await downloadResuming(
                request, to: destination, progress: progress, prepared.validation)
        }
    }

    /// A download that cannot be resumed: the body replaces the file, whatever the status, and
    /// a body cut part way leaves no file.
    private func downloadWhole(
        _ request: TransportRequest, to destination: URL, progress: (@Sendable (TransferProgress) -> Void)?,
        _ validation: Validation?
    ) async throws -> Response<URL> {
        let exchanged: Response<Void>
        do {
            exchanged = try await exchange(
                request, delivery: .streamed, progress: progress, validation: validation, bodyGoesToDisk: true
            )
        } catch let error as CourierError where error.category == .unacceptableStatus {
            try? FileManager.default.removeItem(at: destination)  // allowed: it throws below
            throw error
        }
        let count = try await DownloadFile.write(
            exchanged, to: destination, keeping: 0, removingOnFailure: true)
        return exchanged.with(destination, body: .file(destination, byteCount: count))
    }

    /// A resumable download: the resume step asks for what the file lacks, the body goes into
    /// the file after the bytes kept (a `206`) or replaces it (any other 2xx), and a body cut
    /// part way is resumed while an interceptor (`RetryPolicy`) asks for another attempt.
    private func downloadResuming(
        _ request: TransportRequest, to destination: URL, progress: (@Sendable (TransferProgress) -> Void)?,
        _ validation: Validation?
    ) async throws -> Response<URL> {
        let resumer = ResumableDownload(file: destination, url: request.url)
        let record = ExchangeRecord(request: request)
        while true {
            let exchanged: Response<Void>
            do {
                exchanged = try await exchange(
                    request, delivery: .streamed, progress: progress, validation: validation,
                    outermost: resumer, record: record, bodyGoesToDisk: true)
            } catch let error as CourierError where error.category == .unacceptableStatus {
                if let status = error.status, (200..<300).contains(status) {
                    // A 2xx the validation refused (its content type): not a part worth resuming.
                    resumer.discard()
                } else if !resumer.hasResumableBytes {
                    try? FileManager.default.removeItem(at: destination)  // allowed: it throws below
                }
                throw error
            }
            let status = exchanged.status
            if !(200..<300).contains(status), resumer.hasResumableBytes {
                // An accepted status outside 2xx while the file holds the resumable part of an
                // unfinished download: the file is kept, and this body is kept in memory.
                return exchanged.with(destination, body: .data(try await collect(exchanged)))
            }
            // A 206 goes after the bytes kept; any other answer replaces the file, and a body
            // outside 2xx cut part way leaves none.
            let keeping = status == 206 ? resumer.offset : 0
            do {
                let count = try await DownloadFile.write(
                    exchanged, to: destination, keeping: keeping,
                    removingOnFailure: !(200..<300).contains(status))
                resumer.finish()
                return exchanged.with(destination, body: .file(destination, byteCount: count))
            } catch let error as CourierError {
                guard resumer.hasResumableBytes else {
                    // Cut, from a server that gave no validator: the part cannot be resumed, and left
                    // behind it would pass for the whole file.
                    try? FileManager.default.removeItem(at: destination)  // allowed: it throws below
                    throw error
                }
                guard
                    let delay = retryDelay(
                        afterBodyFailure: error, of: exchanged.request, attempts: record.attempts)
                else { throw error }
                try await Task.sleep(for: delay)
            }
        }
    }

    /// The first wait an interceptor asks for before the call is made again, after its body
    /// failed part way; nil when none asks.
    private func retryDelay(afterBodyFailure error: CourierError, of request: TransportRequest, attempts: Int)
        -> Duration?
    {
        for interceptor in interceptors {
            if let delay = interceptor.retryDelay(afterBodyFailure: error, of: request, attempts: attempts) {
                return delay
            }
        }
        return nil
    }

    /// Where `download(_:to:progress:)` keeps the validator of an unfinished download of
    /// `destination`.
    package static func resumeRecordURL(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(
            destination.lastPathComponent + ".courier-resume")
    }
}
