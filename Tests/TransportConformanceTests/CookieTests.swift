import Courier
import CourierCookies
import CourierTesting
import Foundation
import MockServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Courier's own cookie jar, over each transport: a `Set-Cookie` on a redirect is kept, and
/// cookies go to the next hop only when it is theirs.
@Suite struct CookieTests {
    static func redirect(to url: String, cookie: String) -> String {
        let query = CharacterSet.alphanumerics
        return "/redirect-to?url=\(url.addingPercentEncoding(withAllowedCharacters: query)!)"
            + "&cookie=\(cookie.addingPercentEncoding(withAllowedCharacters: query)!)"
    }

    @Test(arguments: TransportUnderTest.all)
    func aCookieSetByARedirectGoesToTheNextHop(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let jar = CookieJar()
                var request = TransportRequest(
                    urlRequest: try server.request(Self.redirect(to: "/echo/home", cookie: "sid=abc; Path=/"))
                )
                request.cookieJar = jar
                let echo = try await sut.send(request).echo()
                #expect(echo.path == "/echo/home")
                #expect(echo.header("Cookie") == "sid=abc")
                #expect(jar.cookieHeader(for: server.baseURL) == "sid=abc")
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func cookiesDoNotFollowARedirectToAnotherHost(transport: TransportUnderTest) async throws {
        try await withConformanceServer { other in
            try await withConformanceServer { server in
                try await transport.with { sut in
                    let jar = CookieJar()
                    jar.store(from: ["Set-Cookie": "old=1; Path=/"], for: server.baseURL)
                    // The same loopback server under another host name.
                    let elsewhere = "http://localhost:\(other.port)/echo/elsewhere"
                    var request = TransportRequest(
                        urlRequest: try server.request(
                            Self.redirect(to: elsewhere, cookie: "sid=abc; Path=/"),
                            headers: ["Cookie": "mine=1"]))
                    request.cookieJar = jar
                    let echo = try await sut.send(request).echo()
                    #expect(echo.path == "/echo/elsewhere")
                    #expect(echo.header("Cookie") == nil, "a cookie went to another host")
                    #expect(jar.cookieHeader(for: server.baseURL) == "old=1; sid=abc")
                }
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func theCallersCookieHeaderGoesFirstAndARefusedDomainIsNotKept(transport: TransportUnderTest) async throws
    {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let jar = CookieJar()
                var request = TransportRequest(
                    urlRequest: try server.request(
                        Self.redirect(to: "/echo/next", cookie: "tld=1; Domain=com; Path=/"),
                        headers: ["Cookie": "mine=1"]))
                jar.store(from: ["Set-Cookie": "sid=abc; Path=/"], for: server.baseURL)
                request.cookieJar = jar
                let echo = try await sut.send(request).echo()
                #expect(echo.header("Cookie") == "mine=1; sid=abc")
                #expect(jar.cookies.map(\.name) == ["sid"])
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aManagerKeepsCookiesBetweenCalls(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let manager = NetworkManager(transport: sut, baseURL: server.baseURL)
                let login = URLRequest(url: server.baseURL.appendingPathComponent("redirect-to"))
                var components = URLComponents(url: login.url!, resolvingAgainstBaseURL: false)!
                components.queryItems = [
                    URLQueryItem(name: "url", value: "/echo/welcome"),
                    URLQueryItem(name: "cookie", value: "sid=xyz; Path=/; HttpOnly"),
                ]
                let first = try await manager.sendRaw(URLRequest(url: components.url!))
                #expect(try JSONDecoder().decode(Echo.self, from: first.value).header("Cookie") == "sid=xyz")
                let second = try await manager.sendRaw(
                    URLRequest(url: server.baseURL.appendingPathComponent("echo/later")))
                #expect(try JSONDecoder().decode(Echo.self, from: second.value).header("Cookie") == "sid=xyz")
                let none = NetworkManager(transport: sut, baseURL: server.baseURL, cookieJar: nil)
                let third = try await none.sendRaw(URLRequest(url: components.url!))
                #expect(try JSONDecoder().decode(Echo.self, from: third.value).header("Cookie") == nil)
            }
        }
    }
}
