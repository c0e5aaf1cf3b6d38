import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A body in a coding libcurl does not know, beyond the product suite's check (which accepts a
/// transport that cannot take it): CurlTransport hands it over as it came; URLSessionTransport
/// cannot (FoundationNetworking has libcurl decode every body) and fails with `.transferFailed`,
/// which is not retried, as the README's transport table says.
@Suite struct ContentCodingTests {
    @Test(arguments: TransportUnderTest.all, ["utf-8", "foo, identity"])
    func anUnknownContentEncoding(transport: TransportUnderTest, coding: String) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let query = coding.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? coding
                let request = TransportRequest(urlRequest: try server.request("/encoded?coding=\(query)"))
                if transport.kind == .urlsession {
                    let error = await expectCourierError(sut, request)
                    #expect(error?.code == .transferFailed)
                    #expect(error?.message.contains("use CurlTransport") == true)
                } else {
                    let response = try await sut.send(request)
                    #expect(response.body.data == Data("hello".utf8))
                    #expect(response.headers["Content-Encoding"] == coding)
                }
            }
        }
    }
}
