import Courier
import Foundation

/// A response asked for with `.streamed` delivery: its head, and its body as a stream.
package struct StreamedResponse: Sendable {
    /// The response; its body is the stream.
    package var head: TransportResponse
    /// The body.
    package var body: ResponseStream

    /// Pairs a head with its body.
    package init(head: TransportResponse, body: ResponseStream) {
        self.head = head
        self.body = body
    }
}

extension Transport {
    /// Sends `request` with `.streamed` delivery, as `NetworkManager.stream` does: the checks of
    /// streaming behaviour (backpressure, cancelling, dropping) read the body as it comes. A
    /// body the transport gave whole streams from memory.
    /// - Throws: what `send` throws.
    package func stream(_ request: TransportRequest) async throws -> StreamedResponse {
        var streamed = request
        streamed.options.delivery = .streamed
        let response = try await send(streamed)
        switch response.body {
        case .stream(let body): return StreamedResponse(head: response, body: body)
        case .data(let data):
            return StreamedResponse(head: response, body: ResponseStream(chunks: data.isEmpty ? [] : [data]))
        case .file(let url, _):
            return StreamedResponse(head: response, body: try ResponseStream(contentsOf: url))
        }
    }
}
