// Must compile: a transport written outside the package, from the public API alone, can do
// what the conformance suite checks: stream with backpressure, report the head of a
// resumable download, and keep cookies on every hop.
import Courier
import Foundation

final class OutsideTransport: Transport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var headers = HTTPHeaders()
        headers.add(name: "Set-Cookie", value: "session=1; Path=/")
        request.cookieJar?.store(from: headers, for: request.url)
        _ = request.cookieJar?.cookieHeader(for: request.url)
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
