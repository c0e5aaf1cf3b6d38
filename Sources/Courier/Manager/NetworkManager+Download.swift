import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkManager {
    /// Sends `endpoint` and streams the response body into a file, never holding it all in
    /// memory.
    ///
    /// The file is created or truncated. When the response is not acceptable the file is
    /// removed and the error carries the first 64 KiB of the body.
    ///
    /// - Parameters:
    ///   - endpoint: what to send.
    ///   - destination: the file to write.
    ///   - progress: called as bytes move.
    /// - Returns: the response, whose value is `destination`.
    /// - Throws: `CourierError`.
    public func download(
        _ endpoint: some URLRequestConvertible, to destination: URL,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Response<URL> {
        try await reportingFailure {
            var request = try makeRequest(endpoint)
            request.destination = .file(destination)
            do {
                return try await exchange(request, progress: progress).map { _ in destination }
            } catch let error as CourierError where error.category == .unacceptableStatus {
                try? FileManager.default.removeItem(at: destination)
                throw error
            }
        }
    }
}
