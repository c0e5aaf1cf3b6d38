import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkManager {
    /// Sends `endpoint` and returns as soon as the response head has arrived, with the body
    /// to read as it comes.
    ///
    /// The head goes through the same pipeline as `send`: interceptors (an auth header, a
    /// retry of a failed or refused attempt, which happens before any body byte is handed
    /// out) and validation. The body is not held in memory: while the consumer is behind by
    /// `TransferOptions.streamBufferBytes`, the transport stops reading from the network.
    /// Interceptors see the body as it streams (a cache stores it once it has passed whole),
    /// and a response they answer themselves (a cache's) streams the same way.
    ///
    /// ```swift
    /// let response = try await manager.stream(URLRequest(url: URL(string: "/notes/export")!))
    /// for try await chunk in response.value { try handle.write(contentsOf: chunk) }
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: what to send.
    ///   - progress: called as bytes move.
    /// - Returns: the validated head, with the body stream as its value.
    /// - Throws: `CourierError`: as `send`; an unacceptable status or content type carries
    ///   the first 64 KiB of the body (and the transfer is cancelled);
    ///   `.invalidConfiguration` when the transport cannot stream.
    public func stream(
        _ endpoint: some URLRequestConvertible, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(CourierError) -> Response<ResponseStream> {
        try await reportingFailure {
            let prepared = try prepare(endpoint)
            return try await streamed(prepared.request, progress: progress, validation: prepared.validation)
        }
    }

    /// The exchange of `request` with its body as a stream: what `stream` and `events` read.
    /// A body an interceptor gave whole streams from memory.
    /// - Throws: `CourierError`.
    package func streamed(
        _ request: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)? = nil,
        validation: Validation? = nil
    ) async throws -> Response<ResponseStream> {
        let exchanged = try await exchange(
            request, delivery: .streamed, progress: progress, validation: validation)
        let stream: ResponseStream
        switch exchanged.body {
        case .stream(let body): stream = body
        case .data(let data): stream = ResponseStream(chunks: data.isEmpty ? [] : [data])
        case .file(let url, _): stream = try ResponseStream(contentsOf: url)
        }
        return exchanged.with(stream, body: .stream(stream))
    }
}
