import Courier
import Foundation
import MockServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Redirects are followed up to the limit, and credentials stay with their host.
@Suite struct RedirectTests {
    @Test(arguments: TransportUnderTest.all)
    func redirectsAreFollowedToTheFinalResponse(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let response = try await sut.send(
                    TransportRequest(urlRequest: try server.request("/redirect/3")))
                #expect(response.status == 200)
                #expect(try response.echo().path == "/echo/final")
                #expect(response.url?.path == "/echo/final")
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func moreRedirectsThanTheLimitFail(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = TransportRequest(
                    urlRequest: try server.request("/redirect/5"), options: TransferOptions(maxRedirects: 2))
                let error = await expectCourierError(sut, request)
                #expect(error?.code == .tooManyRedirects)
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aLimitOfZeroReturnsTheRedirectItself(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = TransportRequest(
                    urlRequest: try server.request("/redirect/1"), options: TransferOptions(maxRedirects: 0))
                let response = try await sut.send(request)
                #expect(response.status == 302)
                #expect(response.headers["Location"] == "/echo/final")
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aPostRedirectedWith303BecomesAGet(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = try server.request("/redirect-to?url=/echo/after&status=303", method: "POST")
                let response = try await sut.send(
                    TransportRequest(urlRequest: request, body: .data(Data("x".utf8))))
                let echo = try response.echo()
                #expect(echo.method == "GET")
                #expect(echo.bodyData == Data())
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func a307ResendsTheMethodAndTheBodyFromItsFile(transport: TransportUnderTest) async throws {
        let directory = try TemporaryDirectory()
        let file = try Pattern.writeFile(length: 150_000, in: directory.url)
        let payload = Pattern.bytes(offset: 0, count: 150_000)
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = try server.request(
                    "/redirect-to?url=/echo/after&status=307", method: "POST",
                    headers: ["Content-Type": "application/octet-stream"])
                let echo = try await sut.send(TransportRequest(urlRequest: request, body: .file(file))).echo()
                #expect(echo.path == "/echo/after")
                #expect(echo.method == "POST")
                #expect(echo.bodyData == payload)
            }
        }
    }

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

    /// The server listens on 127.0.0.1; `localhost` names the same socket but a different
    /// host, so Authorization and Cookie must not follow the redirect there, while a custom
    /// header does.
    @Test(arguments: TransportUnderTest.all)
    func credentialsAreNotSentToAnotherHost(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let target = "http://localhost:\(server.port)/echo/elsewhere"
                let request = try server.request(
                    "/redirect-to?url=\(target)",
                    headers: [
                        "Authorization": "Bearer secret-token", "Cookie": "session=secret", "X-Trace": "kept",
                    ])
                let echo = try await sut.send(TransportRequest(urlRequest: request)).echo()
                #expect(echo.path == "/echo/elsewhere")
                #expect(echo.header("Host") == "localhost:\(server.port)")
                #expect(echo.header("Authorization") == nil, "Authorization leaked to another host")
                #expect(echo.header("Cookie") == nil, "Cookie leaked to another host")
                #expect(echo.header("X-Trace") == "kept")
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func credentialsStayOnASameHostRedirect(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = try server.request(
                    "/redirect/1", headers: ["Authorization": "Bearer secret-token"])
                let echo = try await sut.send(TransportRequest(urlRequest: request)).echo()
                #expect(echo.header("Authorization") == "Bearer secret-token")
            }
        }
    }
}
