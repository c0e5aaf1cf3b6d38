import Courier
import CourierTesting
import Foundation
import TestSupport
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
                let echo = try await sut.sendThroughManager(
                    TransportRequest(urlRequest: request, body: .file(file))
                ).echo()
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
                let response = try await sut.sendThroughManager(request)
                #expect(response.status == code)
                #expect(response.headers["Content-Length"] == "10")
                let body = String(decoding: response.body.data, as: UTF8.self)
                #expect(body == (transport.kind == .urlsession ? "" : "status \(code)"))
            }
        }
    }

    /// A chain is followed to its final response, for `send` and for `stream`.
    @Test(arguments: TransportUnderTest.all)
    func aChainIsFollowedToTheFinalResponse(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let response = try await sut.sendThroughManager(
                    TransportRequest(urlRequest: try server.request("/redirect/3")))
                #expect(response.status == 200)
                #expect(response.url?.path == "/echo/final")

                let request = try server.request("/redirect-to?url=/bytes/5000&status=302")
                let streamed = try await sut.streamThroughManager(TransportRequest(urlRequest: request))
                #expect(streamed.head.status == 200)
                #expect(streamed.head.url?.path == "/bytes/5000")
                let body = try await streamed.body.collect(upTo: 1 << 20)
                #expect(body == Pattern.bytes(offset: 0, count: 5000), "the final body arrived changed")
            }
        }
    }

    /// More hops than the limit fail; a limit of zero returns the redirect itself.
    @Test(arguments: TransportUnderTest.all)
    func theLimitIsKept(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let error = await expectCourierError(
                    sut,
                    TransportRequest(
                        urlRequest: try server.request("/redirect/5"),
                        options: TransferOptions(maxRedirects: 2)))
                #expect(error?.code == .tooManyRedirects, "five redirects over a limit of two")
                let response = try await sut.sendThroughManager(
                    TransportRequest(
                        urlRequest: try server.request("/redirect/1"),
                        options: TransferOptions(maxRedirects: 0)))
                #expect(response.status == 302)
                #expect(response.headers["Location"] == "/echo/final")
            }
        }
    }

    /// With redirects off, a 3xx with a `Location` is returned as it came, head and body; 300
    /// and 304, and the others without a `Location`, are final responses either way.
    @Test(arguments: TransportUnderTest.all)
    func every3xxIsReturnedWhenNotFollowed(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let notFollowed = TransferOptions(maxRedirects: 0)
                for code in [301, 302, 303, 307, 308] {
                    let request = try server.request(
                        "/redirect-to?url=/echo/final&status=\(code)&body=moved%20\(code)")
                    let response = try await sut.sendThroughManager(
                        TransportRequest(urlRequest: request, options: notFollowed))
                    #expect(response.status == code)
                    #expect(response.headers["Location"] == "/echo/final", "Location of a \(code)")
                    #expect(String(decoding: response.body.data, as: UTF8.self) == "moved \(code)")
                }
                for code in [300, 301, 302, 303, 304, 305, 307, 308] {
                    for options in [notFollowed, TransferOptions()] {
                        let what = "a \(code) without a Location (maxRedirects \(options.maxRedirects))"
                        let response = try await sut.sendThroughManager(
                            TransportRequest(
                                urlRequest: try server.request("/status/\(code)"), options: options))
                        #expect(response.status == code, "\(what)")
                        guard code != 304 else { continue }
                        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8", "\(what)")
                        // URLSessionTransport returns a 301–308 without a `Location` without its body.
                        let body = String(decoding: response.body.data, as: UTF8.self)
                        let dropped = code != 300 && body.isEmpty
                        #expect(body == "status \(code)" || dropped, "body of \(what): \(body)")
                    }
                }
            }
        }
    }

    /// A POST after a 303 becomes a GET without a body; a 307 re-sends the method and a file body.
    @Test(arguments: TransportUnderTest.all)
    func aRedirectKeepsOrDropsTheMethodAndBody(transport: TransportUnderTest) async throws {
        let directory = try TemporaryDirectory()
        let file = try Pattern.writeFile(length: 150_000, in: directory.url)
        try await withConformanceServer { server in
            try await transport.with { sut in
                let after303 = try server.request("/redirect-to?url=/echo/after&status=303", method: "POST")
                let get = try await sut.sendThroughManager(
                    TransportRequest(urlRequest: after303, body: .data(Data("x".utf8)))
                ).echo()
                #expect(get.method == "GET")
                #expect(get.bodyData == Data())

                let after307 = try server.request(
                    "/redirect-to?url=/echo/after&status=307", method: "POST",
                    headers: ["Content-Type": "application/octet-stream"])
                let post = try await sut.sendThroughManager(
                    TransportRequest(urlRequest: after307, body: .file(file))
                )
                .echo()
                #expect(post.path == "/echo/after")
                #expect(post.method == "POST")
                #expect(
                    post.bodyData == Pattern.bytes(offset: 0, count: 150_000),
                    "the body was not re-sent intact")
            }
        }
    }

    /// Credentials stay on their host and do not go to another one; other headers go on.
    @Test(arguments: TransportUnderTest.all)
    func credentialsStayWithTheirHost(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                // The server listens on 127.0.0.1; `localhost` is the same socket but another host.
                let target = "http://localhost:\(server.port)/echo/elsewhere"
                let away = try server.request(
                    "/redirect-to?url=\(target)",
                    headers: [
                        "Authorization": "Bearer secret-token", "Cookie": "session=secret", "X-Trace": "kept",
                    ])
                let echo = try await sut.sendThroughManager(TransportRequest(urlRequest: away)).echo()
                #expect(echo.path == "/echo/elsewhere")
                #expect(echo.header("Authorization") == nil, "Authorization leaked to another host")
                #expect(echo.header("Cookie") == nil, "Cookie leaked to another host")
                #expect(echo.header("X-Trace") == "kept")

                let same = try server.request(
                    "/redirect/1", headers: ["Authorization": "Bearer secret-token"])
                let home = try await sut.sendThroughManager(TransportRequest(urlRequest: same)).echo()
                #expect(home.header("Authorization") == "Bearer secret-token")
            }
        }
    }
}
