// Must compile: a transport written outside the package, from the public API alone, can do
// what the conformance suite checks: one exchange per call, stream with backpressure, report
// the head of a resumable download. A manager on it follows redirects and keeps cookies.
import Courier
import Foundation

final class OutsideTransport: Transport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var headers = HTTPHeaders()
        headers.add(name: "Set-Cookie", value: "session=1; Path=/")
        _ = request.headers["Cookie"]
        request.onResponseHead?(200, headers)
        return TransportResponse(status: 200, headers: headers, body: .data(Data()))
    }

    func stream(_ request: TransportRequest) async throws -> TransportStream {
        let (body, producer) = ResponseStream.makeStream(
            bufferingUpTo: request.options.streamBufferBytes, onResume: {}, onCancel: {})
        switch producer.yield(Data("chunk".utf8)) {
        case .keepGoing, .pause, .stop: break
        }
        producer.finish()
        let head = TransportResponse(status: 200, headers: HTTPHeaders(), body: .data(Data()))
        return TransportStream(head: head, body: body)
    }
}

_ = NetworkManager(transport: OutsideTransport(), transferOptions: TransferOptions(maxRedirects: 5))
