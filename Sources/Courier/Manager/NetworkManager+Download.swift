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
            var request = prepared.request
            let validation = prepared.validation
            let url = request.url
            guard request.method == .get, !request.headers.contains("Range") else {
                request.destination = .file(destination)
                do {
                    return try await exchange(request, progress: progress, validation: validation).map { _ in
                        destination
                    }
                } catch let error as CourierError where error.category == .unacceptableStatus {
                    try? FileManager.default.removeItem(at: destination)
                    throw error
                }
            }
            let resumer = ResumableDownload(file: destination, url: url)
            request.destination = .resumableFile(destination, offset: 0)
            let response: Response<Data>
            do {
                response = try await exchange(
                    request, progress: progress, validation: validation, innermost: resumer)
            } catch let error as CourierError {
                if error.category == .unacceptableStatus, let status = error.status,
                    (200..<300).contains(status)
                {
                    // A 2xx the validation refused (its content type, or a status not accepted): the file
                    // holds that body, not a part worth resuming.
                    resumer.discard()
                } else if error.category == .unacceptableStatus {
                    if !resumer.hasResumableBytes { try? FileManager.default.removeItem(at: destination) }
                } else if resumer.holdsUnresumableBytes {
                    // Cut, from a server that gave no validator: the part cannot be resumed, and left
                    // behind it would pass for the whole file.
                    try? FileManager.default.removeItem(at: destination)
                }
                throw error
            }
            if case .data(let data) = response.body, resumer.hasResumableBytes {
                // An accepted status outside 2xx while part of the file is already here (a 503
                // on a retry): the bytes and their record stay for a later resume, and the
                // body is given in memory rather than written over them.
                return Response(
                    value: destination, status: response.status, headers: response.headers, body: .data(data),
                    request: response.request, url: response.url, timings: response.timings,
                    httpVersion: response.httpVersion, attempts: response.attempts)
            }
            resumer.finish()
            if case .data(let data) = response.body {
                // An accepted status outside 2xx: its body was kept in memory, off the file.
                do {
                    try data.write(to: destination)
                } catch {
                    throw CourierError(
                        .fileWriteFailed, "cannot write the response body to \(destination.path)",
                        request: response.request, underlying: error)
                }
                return Response(
                    value: destination, status: response.status, headers: response.headers,
                    body: .file(destination, byteCount: Int64(data.count)), request: response.request,
                    url: response.url, timings: response.timings, httpVersion: response.httpVersion,
                    attempts: response.attempts)
            }
            return response.map { _ in destination }
        }
    }

    /// Where `download(_:to:progress:)` keeps the validator of an unfinished download of
    /// `destination`.
    package static func resumeRecordURL(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(
            destination.lastPathComponent + ".courier-resume")
    }
}
