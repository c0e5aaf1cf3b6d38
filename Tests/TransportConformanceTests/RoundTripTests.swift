import Courier
import CourierTesting
import CourierURLSession
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How each transport frames a stream body: a documented difference the product's suite
/// allows either way (see `TransportConformanceSuiteTests` for the rest of the round trips).
@Suite struct RoundTripTests {
    @Test(arguments: TransportUnderTest.all)
    func aStreamOfUnknownLengthIsSentChunked(transport: TransportUnderTest) async throws {
        let payload = Pattern.bytes(offset: 0, count: 200_000)
        let stream = BodyStream(length: nil) { PieceReader(payload, piece: 7_000) }
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = try server.request(
                    "/echo/chunked", method: "PUT", headers: ["Content-Type": "application/octet-stream"])
                let echo = try await sut.send(TransportRequest(urlRequest: request, body: .stream(stream)))
                    .echo()
                #expect(echo.bodyData == payload)
                switch transport.kind {
                case .curl:
                    #expect(echo.header("Transfer-Encoding")?.lowercased() == "chunked")
                case .stub, .other:
                    Issue.record(
                        "framing needs a socket; only CurlTransport and URLSessionTransport run this")
                case .urlsession:
                    // Documented difference: URLSessionTransport spools a stream to a
                    // temporary file on Linux and sends it with a Content-Length.
                    #expect(echo.header("Content-Length") == "\(payload.count)")
                }
            }
        }
    }
}
