import Courier
import CourierInterceptors
import CourierPrimitives
import CourierTesting
import Foundation
import TestSupport
import Testing

/// A token store whose refresh is slow enough for many requests to pile up behind it.
final class CountingTokenProvider: TokenProvider {
    private let state = Locked((token: "old", refreshes: 0))
    let refreshDelay: UInt64
    let failRefresh: Bool

    init(refreshDelay: UInt64 = 50_000_000, failRefresh: Bool = false) {
        self.refreshDelay = refreshDelay
        self.failRefresh = failRefresh
    }

    var refreshes: Int { state.withLock { $0.refreshes } }

    func currentToken() async throws -> String? { state.withLock { $0.token } }

    func refreshToken() async throws -> String {
        try await Task.sleep(nanoseconds: refreshDelay)
        struct RefreshFailed: Error {}
        if failRefresh { throw RefreshFailed() }
        return state.withLock { state in
            state.refreshes += 1
            state.token = "new\(state.refreshes)"
            return state.token
        }
    }
}

/// Answers 401 unless the request carries `Bearer <valid>`.
func authStub(valid: String) -> StubTransport {
    let stub = StubTransport()
    stub.on(.get, "/posts/*") { request in
        request.headers["Authorization"] == "Bearer \(valid)"
            ? .json(#"{"id":"1","likes":1}"#) : .status(401)
    }
    return stub
}

struct AuthInterceptorTests {
    @Test func addsBearerToken() async throws {
        let stub = authStub(valid: "old")
        let provider = CountingTokenProvider()
        let manager = makeManager(stub, interceptors: [AuthInterceptor(provider: provider)])
        _ = try await manager.send(TestEndpoint.post("1"), as: TestPost.self)
        #expect(stub.requests.first?.headers["Authorization"] == "Bearer old")
        #expect(provider.refreshes == 0)
    }

    @Test func twentyConcurrent401sShareOneRefresh() async throws {
        let stub = authStub(valid: "new1")
        let provider = CountingTokenProvider()
        let manager = makeManager(stub, interceptors: [AuthInterceptor(provider: provider)])
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await manager.send(TestEndpoint.post("\(index)"), as: TestPost.self).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 20))
        #expect(provider.refreshes == 1)
        let replays = stub.requests.filter { $0.headers["Authorization"] == "Bearer new1" }
        #expect(replays.count == 20)
    }

    @Test func second401AfterRefreshIsSurfaced() async throws {
        let stub = authStub(valid: "never")
        let provider = CountingTokenProvider(refreshDelay: 0)
        let manager = makeManager(stub, interceptors: [AuthInterceptor(provider: provider)])
        let error = await #expect(throws: CourierError.self) {
            try await manager.send(TestEndpoint.post("1"), as: TestPost.self)
        }
        #expect(error?.status == 401)
        #expect(error?.code == .unacceptableStatus)
        #expect(provider.refreshes == 1)
        #expect(stub.requests.count == 2)
    }

    @Test func failedRefreshIsUnacceptableStatusWithCause() async throws {
        let stub = authStub(valid: "new1")
        let provider = CountingTokenProvider(refreshDelay: 0, failRefresh: true)
        let manager = makeManager(stub, interceptors: [AuthInterceptor(provider: provider)])
        let error = await #expect(throws: CourierError.self) {
            try await manager.send(TestEndpoint.post("1"), as: TestPost.self)
        }
        #expect(error?.status == 401)
        #expect(error?.underlying != nil)
        #expect(stub.requests.count == 1)
    }

    @Test func failingProviderIsAuthenticationFailed() async throws {
        struct Broken: TokenProvider {
            struct Locked: Error {}
            func currentToken() async throws -> String? { throw Locked() }
            func refreshToken() async throws -> String { throw Locked() }
        }
        let stub = authStub(valid: "x")
        let manager = makeManager(stub, interceptors: [AuthInterceptor(provider: Broken())])
        let error = await #expect(throws: CourierError.self) {
            try await manager.send(TestEndpoint.post("1"), as: TestPost.self)
        }
        #expect(error?.code == .authenticationFailed)
        #expect(stub.requests.isEmpty)
    }

    @Test func retryOutsideAuthReplaysWithFreshToken() async throws {
        let stub = StubTransport()
        let calls = Locked(0)
        stub.on(.get, "/posts/*") { request in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            if call == 1 { return .status(503) }
            return request.headers["Authorization"] == "Bearer new1"
                ? .json(#"{"id":"1","likes":1}"#) : .status(401)
        }
        let provider = CountingTokenProvider(refreshDelay: 0)
        let policy = RetryPolicy(random: { 0 }, sleep: { _ in })
        let manager = makeManager(stub, interceptors: [policy, AuthInterceptor(provider: provider)])
        let response = try await manager.send(TestEndpoint.post("1"), as: TestPost.self)
        #expect(response.attempts == 3)
        #expect(provider.refreshes == 1)
    }
}
