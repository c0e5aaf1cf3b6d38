import Courier
import Foundation
import Testing

@testable import CourierCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// libcurl hands a chunked body's trailer fields to the header callback after the body.
@Suite struct ChunkedTrailerTests {
    @Test(.timeLimit(.minutes(1)))
    func trailerFieldsDoNotBecomeResponseHeaders() async throws {
        let reply =
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n"
            + "Trailer: X-Checksum, X-Status\r\n\r\n"
            + "6\r\nhello \r\n5\r\nworld\r\n0\r\nX-Checksum: abc123\r\nX-Status: done\r\n\r\n"
        let server = try RawHTTPServer { _ in Data(reply.utf8) }
        defer { server.stop() }
        try await CurlTransport.with { transport in
            let response = try await transport.send(
                TransportRequest(urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("t"))))
            #expect(response.status == 200)
            #expect(response.body.data == Data("hello world".utf8))
            #expect(response.headers["Content-Type"] == "text/plain")
            #expect(response.headers["X-Checksum"] == nil)
            #expect(response.headers["X-Status"] == nil)
        }
    }
}
