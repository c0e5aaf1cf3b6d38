import Courier
import CourierCookies
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport as a package outside Courier would write it, from the public API alone: one
/// exchange per call, no redirects, no cookies. The manager gives it both.
private final class OutsideTransport: Transport {
    private let seen = Mutex<[TransportRequest]>([])
    private let answer: @Sendable (TransportRequest) -> TransportResponse

    init(answer: @escaping @Sendable (TransportRequest) -> TransportResponse) { self.answer = answer }

    var requests: [TransportRequest] { seen.withLock { $0 } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        seen.withLock { $0.append(request) }
        return answer(request)
    }

    /// `/login` redirects (with `status`) to `/home` and sets a cookie; `/away` redirects to
    /// another origin; anything else answers with the `Cookie` and `Authorization` it got.
    static func loginSite(status: Int = 302) -> OutsideTransport {
        OutsideTransport { request in
            var headers = HTTPHeaders()
            switch request.url.path {
            case "/login":
                headers.add(name: "Location", value: "/home")
                headers.add(name: "Set-Cookie", value: "sid=1; Path=/")
                return TransportResponse(status: status, headers: headers, url: request.url)
            case "/away":
                headers.add(name: "Location", value: "https://other.test/landing")
                return TransportResponse(status: 302, headers: headers, url: request.url)
            default:
                let cookie = request.headers["Cookie"] ?? "-"
                let authorization = request.headers["Authorization"] ?? "-"
                let body = Data("\(request.method.rawValue) cookie=\(cookie) auth=\(authorization)".utf8)
                return TransportResponse(status: 200, body: .data(body), url: request.url)
            }
        }
    }
}

@Suite struct OutsideTransportTests {
    static let base = URL(string: "https://app.test")!

    /// The manager follows the redirect and carries the cookie set on it to the next hop; the
    /// transport sees two plain exchanges and never a cookie jar.
    @Test(arguments: [301, 302, 303, 307, 308])
    func theManagerFollowsRedirectsWithCookiesPerHop(status: Int) async throws {
        let transport = OutsideTransport.loginSite(status: status)
        let jar = CookieJar()
        let manager = NetworkManager(transport: transport, baseURL: Self.base, cookieJar: jar)
        let response = try await manager.sendRaw(URLRequest(url: Self.base.appendingPathComponent("login")))
        #expect(response.status == 200)
        #expect(response.url?.path == "/home")
        #expect(String(decoding: response.value, as: UTF8.self) == "GET cookie=sid=1 auth=-")
        #expect(transport.requests.map(\.url.path) == ["/login", "/home"])
        #expect(transport.requests.last?.headers["Cookie"] == "sid=1", "the jar stays in the manager")
        #expect(jar.cookieHeader(for: Self.base) == "sid=1")
    }

    /// A stream follows the redirect too.
    @Test func aStreamFollowsRedirects() async throws {
        let transport = OutsideTransport.loginSite()
        let manager = NetworkManager(transport: transport, baseURL: Self.base)
        let response = try await manager.stream(URLRequest(url: Self.base.appendingPathComponent("login")))
        let body = try await response.value.collect(upTo: 1 << 10)
        #expect(String(decoding: body, as: UTF8.self) == "GET cookie=sid=1 auth=-")
        #expect(transport.requests.map(\.url.path) == ["/login", "/home"])
    }

    /// A redirect to another origin drops the credentials before the transport sees the hop, and
    /// the redirect limit is the manager's.
    @Test func theManagerAppliesTheCrossOriginPolicyAndTheLimit() async throws {
        let transport = OutsideTransport.loginSite()
        let manager = NetworkManager(transport: transport, baseURL: Self.base)
        var request = URLRequest(url: Self.base.appendingPathComponent("away"))
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        let response = try await manager.sendRaw(request)
        #expect(String(decoding: response.value, as: UTF8.self) == "GET cookie=- auth=-")
        #expect(transport.requests.last?.url.host == "other.test")

        let strict = NetworkManager(
            transport: transport, baseURL: Self.base, transferOptions: TransferOptions(maxRedirects: 0),
            validation: Validation(acceptableStatusCodes: 200..<400))
        let unfollowed = try await strict.sendRaw(URLRequest(url: Self.base.appendingPathComponent("login")))
        #expect(unfollowed.status == 302)
    }
}
