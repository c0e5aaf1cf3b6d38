// Must compile: a transport written outside the package, from the public API alone, can do
// what the conformance suite checks: one exchange per call, its body whole or streamed with
// backpressure, as the request's delivery asks. A manager on it follows redirects, keeps
// cookies, writes downloads and resumes them.
import Courier
import CourierTransportKit
import Foundation

final class OutsideTransport: Transport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var headers = HTTPHeaders()
        headers.add(name: "Set-Cookie", value: "session=1; Path=/")
        _ = request.headers["Cookie"]
        guard request.options.prefersStreamedBody else {
            return TransportResponse(status: 200, headers: headers, body: .data(Data("whole".utf8)))
        }
        let (body, producer) = ResponseStream.makeStream(
            bufferingUpTo: request.options.streamBufferBytes, onResume: {}, onCancel: {})
        switch producer.yield(Data("chunk".utf8)) {
        case .keepGoing, .pause, .stop: break
        }
        producer.finish()
        return TransportResponse(status: 200, headers: headers, body: .stream(body))
    }
}

_ = NetworkManager(transport: OutsideTransport(), transferOptions: TransferOptions(maxRedirects: 5))
