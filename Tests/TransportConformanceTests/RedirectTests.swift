import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Redirects that re-send a file body, beyond the product suite's redirect checks.
@Suite struct RedirectTests {
    /// A 308 to another host re-sends the PUT and its file body there, without credentials.
    @Test(arguments: TransportUnderTest.all)
    func a308ToAnotherHostResendsTheFileBodyWithoutCredentials(transport: TransportUnderTest) async throws {
        let directory = try TemporaryDirectory()
        let file = try Pattern.writeFile(length: 70_000, in: directory.url)
        let payload = Pattern.bytes(offset: 0, count: 70_000)
        try await withConformanceServer { server in
            try await transport.with { sut in
                let target = "http://localhost:\(server.port)/echo/moved"
                let request = try server.request(
                    "/redirect-to?url=\(target)&status=308", method: "PUT",
                    headers: ["Authorization": "Bearer secret-token", "X-Trace": "kept"])
                let echo = try await sut.send(TransportRequest(urlRequest: request, body: .file(file))).echo()
                #expect(echo.path == "/echo/moved")
                #expect(echo.method == "PUT")
                #expect(echo.bodyData == payload)
                #expect(echo.header("Authorization") == nil, "Authorization leaked to another host")
                #expect(echo.header("X-Trace") == "kept")
            }
        }
    }

    /// Two 307s over a limit of one fail with `.tooManyRedirects`, with a file body too.
    @Test(arguments: TransportUnderTest.all)
    func more307sThanTheLimitFailWithAFileBody(transport: TransportUnderTest) async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("body.bin")
        try Data("loop".utf8).write(to: file)
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = try server.request(
                    "/redirect-to?url=/redirect-to%3Furl%3D/echo%26status%3D307&status=307", method: "POST")
                let error = await expectCourierError(
                    sut,
                    TransportRequest(
                        urlRequest: request, body: .file(file), options: TransferOptions(maxRedirects: 1)))
                #expect(error?.code == .tooManyRedirects)
            }
        }
    }

    /// A 3xx without a `Location` is the final response. CurlTransport returns its body;
    /// FoundationNetworking keeps the body of a 301–308 it does not follow to itself, so
    /// URLSessionTransport returns the head alone (the README's transport table says so).
    @Test(arguments: TransportUnderTest.all, [301, 302, 303, 307, 308])
    func a3xxWithoutALocationIsReturned(transport: TransportUnderTest, code: Int) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = TransportRequest(
                    urlRequest: try server.request("/status/\(code)"),
                    options: TransferOptions(maxRedirects: 0))
                let response = try await sut.send(request)
                #expect(response.status == code)
                #expect(response.headers["Content-Length"] == "10")
                let body = String(decoding: response.body.data, as: UTF8.self)
                #expect(body == (transport.kind == .urlsession ? "" : "status \(code)"))
            }
        }
    }
}
