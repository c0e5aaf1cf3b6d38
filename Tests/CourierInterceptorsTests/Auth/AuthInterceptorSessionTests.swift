import Courier
import CourierInterceptors
import CourierPrimitives
import CourierTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A token store with a login, a logout and per-user refreshes, like an app's session.
final class SessionTokenStore: TokenProvider {
    private let state = Locked((user: "a" as String?, generation: 1, refreshes: [String]()))

    func currentToken() async throws -> String? {
        state.withLock { state in state.user.map { "\($0)\(state.generation)" } }
    }

    func refreshToken() async throws -> String {
        try state.withLock { state in
            guard let user = state.user else { throw CourierError(.authenticationFailed, "logged out") }
            state.generation += 1
            let token = "\(user)\(state.generation)"
            state.refreshes.append(token)
            return token
        }
    }

    func logIn(_ user: String) { state.withLock { $0 = (user, 1, $0.refreshes) } }
    func logOut() { state.withLock { $0.user = nil } }
    var refreshes: [String] { state.withLock { $0.refreshes } }
}

/// A refreshed token is used only in place of the token it replaced, for the user it was
/// refreshed for; and the token only goes to the API's own origin.
struct AuthInterceptorSessionTests {
    @Test func afterALogoutNoAuthorizationIsEverSent() async throws {
        let store = SessionTokenStore()
        let stub = authStub(valid: "a2")
        let manager = makeManager(stub, interceptors: [AuthInterceptor(provider: store)])
        _ = try await manager.send(TestEndpoint.post("1"), as: TestPost.self)  // a1 → 401 → refresh → a2
        #expect(store.refreshes == ["a2"])
        store.logOut()
        let before = stub.requests.count
        await #expect(throws: CourierError.self) {
            try await manager.send(TestEndpoint.post("2"), as: TestPost.self)
        }
        let afterLogout = stub.requests.dropFirst(before)
        #expect(afterLogout.count == 1, "a request without a token is not refreshed and replayed")
        for request in afterLogout {
            #expect(request.headers["Authorization"] == nil, "sent \(request.headers["Authorization"] ?? "")")
        }
        #expect(store.refreshes == ["a2"])
    }

    @Test func anotherUsersExpiredTokenIsRefreshedNotReplacedWithTheFirstUsers() async throws {
        let store = SessionTokenStore()
        let valid = Locked("a2")
        let stub = StubTransport()
        stub.on(.get, "/posts/*") { request in
            request.headers["Authorization"] == "Bearer \(valid.withLock { $0 })"
                ? .json(#"{"id":"1","likes":1}"#) : .status(401)
        }
        let manager = makeManager(stub, interceptors: [AuthInterceptor(provider: store)])
        _ = try await manager.send(TestEndpoint.post("1"), as: TestPost.self)  // a1 → refresh → a2
        store.logIn("b")  // b1, which the server no longer accepts
        valid.withLock { $0 = "b2" }
        let before = stub.requests.count
        let response = try await manager.send(TestEndpoint.post("2"), as: TestPost.self)
        #expect(response.status == 200)
        #expect(store.refreshes == ["a2", "b2"], "B's refresh was called")
        let sent = stub.requests.dropFirst(before).map { $0.headers["Authorization"] ?? "none" }
        #expect(sent == ["Bearer b1", "Bearer b2"])
    }

    @Test func theTokenGoesOnlyToTheBaseURLsOriginByDefault() async throws {
        let stub = StubTransport()
        stub.on(matching: { _ in true }) { _ in .json("{}") }
        let manager = makeManager(stub, interceptors: [AuthInterceptor(provider: SessionTokenStore())])
        let targets = [
            "https://api.test/posts/1": true,  // the base URL's origin
            "https://api.test:443/posts/2": true,  // the same origin, port spelled out
            "https://cdn.example/video.mp4": false,  // a server-supplied URL elsewhere
            "http://api.test/posts/3": false,  // another scheme is another origin
            "https://api.test:8443/posts/4": false,  // another port too
        ]
        for (url, expected) in targets {
            _ = try await manager.sendRaw(URLRequest(url: try #require(URL(string: url))))
            let sent = stub.requests.last?.headers["Authorization"]
            #expect((sent != nil) == expected, "\(url): \(sent ?? "no Authorization")")
        }
    }

    @Test func otherOriginsGetTheTokenOnlyWhenTheCallerOptsIn() async throws {
        let stub = StubTransport()
        stub.on(matching: { _ in true }) { _ in .json("{}") }
        let cdn = try #require(URL(string: "https://cdn.example/video.mp4"))
        let listed = makeManager(
            stub,
            interceptors: [
                AuthInterceptor(
                    provider: SessionTokenStore(),
                    scope: .origins([try #require(URL(string: "https://cdn.example"))]))
            ])
        _ = try await listed.sendRaw(URLRequest(url: cdn))
        #expect(stub.requests.last?.headers["Authorization"] == "Bearer a1")
        _ = try await listed.sendRaw(URLRequest(url: try #require(URL(string: "https://api.test/posts/1"))))
        #expect(stub.requests.last?.headers["Authorization"] == nil, "only the listed origins")
        let any = makeManager(
            stub, interceptors: [AuthInterceptor(provider: SessionTokenStore(), scope: .anyOrigin)])
        _ = try await any.sendRaw(URLRequest(url: cdn))
        #expect(stub.requests.last?.headers["Authorization"] == "Bearer a1")
    }
}
