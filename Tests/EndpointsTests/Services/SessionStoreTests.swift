import Endpoints
import Foundation
import Testing

/// A sign-out (or another sign-in) while a token refresh is out wins over the refresh.
@Suite struct SessionStoreTests {
    static func session(_ name: String) -> AuthSession {
        AuthSession(
            token: "token-\(name)", refreshToken: "refresh-\(name)",
            expiresAt: Date(timeIntervalSinceNow: 3600),
            user: User(id: "u-\(name)", name: name, email: "\(name)@example.com", createdAt: Date()))
    }

    @Test(arguments: [nil, "bob"])
    func aSessionChangedDuringARefreshIsNotReplaced(next: String?) async throws {
        let (released, release) = AsyncStream<Void>.makeStream()
        let (started, start) = AsyncStream<Void>.makeStream()
        let store = SessionStore { _ in
            start.yield()
            for await _ in released { break }
            return Self.session("ann-refreshed")
        }
        await store.update(Self.session("ann"))
        let refresh = Task { try await store.refreshToken() }
        for await _ in started { break }
        await store.update(next.map(Self.session))
        release.yield()
        await #expect(throws: SocialError.self) { try await refresh.value }
        #expect(await store.session?.user.name == next)
    }

    @Test func anUnchangedSessionTakesTheRefreshedOne() async throws {
        let store = SessionStore { _ in Self.session("ann-refreshed") }
        await store.update(Self.session("ann"))
        #expect(try await store.refreshToken() == "token-ann-refreshed")
        #expect(await store.session?.refreshToken == "refresh-ann-refreshed")
    }
}
