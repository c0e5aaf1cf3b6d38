import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TransportConformance {
    /// Redirects are followed up to the limit, and credentials stay with their host.
    static let redirectChecks: [Check] = [
        Check("redirects.followedToTheFinalResponse") { c in
            let response = try await c.send(TransportRequest(urlRequest: try c.request("/redirect/3")))
            c.expectEqual(response.status, 200, "status")
            c.expectEqual(response.url?.path, "/echo/final", "final URL")
        },
        Check("redirects.moreThanTheLimitFail") { c in
            let request = TransportRequest(
                urlRequest: try c.request("/redirect/5"), options: TransferOptions(maxRedirects: 2))
            await c.expectError(request, code: .tooManyRedirects, "five redirects over a limit of two")
        },
        Check("redirects.aLimitOfZeroReturnsTheRedirect") { c in
            let response = try await c.send(
                TransportRequest(
                    urlRequest: try c.request("/redirect/1"), options: TransferOptions(maxRedirects: 0)))
            c.expectEqual(response.status, 302, "status")
            c.expectEqual(response.headers["Location"], "/echo/final", "Location")
        },
        Check("redirects.every3xxIsReturnedWhenNotFollowed") { c in
            let notFollowed = TransferOptions(maxRedirects: 0)
            // With a `Location`: returned as it came, head and body, when redirects are off.
            for code in [301, 302, 303, 307, 308] {
                let request = try c.request(
                    "/redirect-to?url=/echo/final&status=\(code)&body=moved%20\(code)")
                let response = try await c.send(TransportRequest(urlRequest: request, options: notFollowed))
                c.expectEqual(response.status, code, "status of a \(code) with a Location")
                c.expectEqual(response.headers["Location"], "/echo/final", "Location of a \(code)")
                c.expectEqual(
                    String(decoding: response.body.data, as: UTF8.self), "moved \(code)", "body of a \(code)")
            }
            // 300 and 304, and the others without a `Location`, are final responses: returned whether
            // redirects are followed or not.
            for code in [300, 301, 302, 303, 304, 305, 307, 308] {
                for options in [notFollowed, TransferOptions()] {
                    let what = "a \(code) without a Location (maxRedirects \(options.maxRedirects))"
                    let response = try await c.send(
                        TransportRequest(urlRequest: try c.request("/status/\(code)"), options: options))
                    c.expectEqual(response.status, code, "status of \(what)")
                    guard code != 304 else { continue }
                    c.expectEqual(
                        response.headers["Content-Type"], "text/plain; charset=utf-8",
                        "Content-Type of \(what)")
                    // FoundationNetworking keeps the body of a 301–308 to itself unless it asks whether
                    // to follow, which it never does without a `Location`: URLSessionTransport returns
                    // such a response without its body.
                    let body = String(decoding: response.body.data, as: UTF8.self)
                    let dropped = code != 300 && body.isEmpty
                    c.expect(body == "status \(code)" || dropped, "body of \(what): \(body)")
                }
            }
        },
        Check("redirects.aPostAfter303BecomesAGet") { c in
            let request = try c.request("/redirect-to?url=/echo/after&status=303", method: "POST")
            let echo = try await c.echo(TransportRequest(urlRequest: request, body: .data(Data("x".utf8))))
            c.expectEqual(echo.method, "GET", "method after 303")
            c.expectEqual(echo.bodyData, Data(), "body after 303")
        },
        Check("redirects.a307ResendsMethodAndFileBody") { c in
            let directory = try TemporaryDirectory(prefix: "courier-conformance")
            let file = try Pattern.writeFile(length: 150_000, in: directory.url)
            let request = try c.request(
                "/redirect-to?url=/echo/after&status=307", method: "POST",
                headers: ["Content-Type": "application/octet-stream"])
            let echo = try await c.echo(TransportRequest(urlRequest: request, body: .file(file)))
            c.expectEqual(echo.path, "/echo/after", "path")
            c.expectEqual(echo.method, "POST", "method after 307")
            c.expect(
                echo.bodyData == Pattern.bytes(offset: 0, count: 150_000), "the body was not re-sent intact")
        },
        Check("redirects.credentialsAreNotSentToAnotherHost") { c in
            // The server listens on 127.0.0.1; `localhost` is the same socket but another host.
            let target = "http://localhost:\(c.server.port)/echo/elsewhere"
            let request = try c.request(
                "/redirect-to?url=\(target)",
                headers: [
                    "Authorization": "Bearer secret-token", "Cookie": "session=secret", "X-Trace": "kept",
                ])
            let echo = try await c.echo(TransportRequest(urlRequest: request))
            c.expectEqual(echo.path, "/echo/elsewhere", "path")
            c.expect(echo.header("Authorization") == nil, "Authorization leaked to another host")
            c.expect(echo.header("Cookie") == nil, "Cookie leaked to another host")
            c.expectEqual(echo.header("X-Trace"), "kept", "X-Trace")
        },
        Check("redirects.credentialsStayOnTheSameHost") { c in
            let request = try c.request("/redirect/1", headers: ["Authorization": "Bearer secret-token"])
            let echo = try await c.echo(TransportRequest(urlRequest: request))
            c.expectEqual(echo.header("Authorization"), "Bearer secret-token", "Authorization")
        },
        Check("redirects.anotherSchemeIsRefused") { c in
            let request = try c.request("/redirect-to?url=ftp://127.0.0.1/file&status=302")
            await c.expectError(
                TransportRequest(urlRequest: request), code: .unsupportedProtocol, "ftp redirect")
        },
    ]
}
