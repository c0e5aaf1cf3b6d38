import CourierCookies
import CourierTesting
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `StubTransport` keeps a manager's cookies the way the socket transports do.
@Suite struct StubTransportCookieTests {
    @Test func aCookieSetByAStubGoesBackOnTheNextCall() async throws {
        let stub = StubTransport { request in
            if request.url.path == "/login" {
                return .text("ok", headers: ["Set-Cookie": "sid=42; Path=/"])
            }
            return .text(request.headers["Cookie"] ?? "none")
        }
        let manager = NetworkManager(transport: stub, baseURL: URL(string: "https://api.test"))
        _ = try await manager.sendRaw(URLRequest(url: URL(string: "https://api.test/login")!))
        let echoed = try await manager.sendRaw(URLRequest(url: URL(string: "https://api.test/me")!))
        #expect(String(decoding: echoed.value, as: UTF8.self) == "sid=42")
        let other = try await manager.sendRaw(URLRequest(url: URL(string: "https://other.test/me")!))
        #expect(String(decoding: other.value, as: UTF8.self) == "none")
    }
}
