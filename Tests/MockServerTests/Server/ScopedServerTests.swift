import Courier
import CourierPrimitives
import Foundation
import MockServer
import TestSupport
import Testing

/// `withMockServer` ends without blocking the cooperative pool and without waiting for clients that left.
@Suite(.blocksItsThread, .timeLimit(.minutes(1)))
struct ScopedServerTests {
    /// Sanitizer builds run several times slower: grace periods and bounds grow together, so a shutdown that
    /// waited out its grace period still breaks the bound.
    static let slow = ProcessInfo.processInfo.environment["COURIER_SANITIZER"] == nil ? 1 : 2
    /// Sends a request for a response delayed by 5 s and returns the connected client.
    private static func leaveDelayedResponse(_ server: MockServer) throws -> RawClient {
        let client = try RawClient(port: server.port)
        try client.send("GET /slow?ms=5000 HTTP/1.1\r\nHost: t\r\n\r\n")
        return client
    }

    /// The grace period is long (20 s), so a shutdown that waited for the departed client would
    /// take at least that long; the bound below leaves room for a loaded machine, where other
    /// tests' blocking socket reads can hold Swift's cooperative threads for seconds.
    @Test func scopeReturnsPromptlyWhenTheClientOfADelayedResponseLeft() async throws {
        let clock = ContinuousClock()
        let configuration = MockServerConfiguration(shutdownGracePeriod: .seconds(20 * Self.slow))
        let bodyEnded = try await withMockServer(configuration: configuration, handlers: TestHandlers.all) {
            server in
            do {
                let client = try Self.leaveDelayedResponse(server)
                // The request is being delayed on the server when the client goes away.
                try await Task.sleep(for: .milliseconds(100))
                withExtendedLifetime(client) {}
            }
            return clock.now
        }
        let lingered = clock.now - bodyEnded
        #expect(lingered < .seconds(8 * Self.slow), "the scope returned \(lingered) after its body")
    }

    @Test func shutdownDoesNotStarveOtherTasks() async throws {
        let clock = ContinuousClock()
        let stop = Locked(false)
        let worstGap = Locked(Duration.zero)
        let ticker = Task {
            while !stop.withLock({ $0 }) {
                let before = clock.now
                try await Task.sleep(for: .milliseconds(10))
                let gap = clock.now - before
                worstGap.withLock { $0 = max($0, gap) }
            }
        }
        // More scopes than the cooperative pool has threads, each ending while a client still waits for a
        // delayed response, so every shutdown waits out its grace period.
        let scopes = ProcessInfo.processInfo.activeProcessorCount + 1
        // A shutdown that blocked a pool thread would hold it for the whole 15 s grace period.
        let configuration = MockServerConfiguration(shutdownGracePeriod: .seconds(15 * Self.slow))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<scopes {
                group.addTask {
                    var client: RawClient?
                    try await withMockServer(configuration: configuration, handlers: TestHandlers.all) {
                        server in
                        client = try Self.leaveDelayedResponse(server)
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    withExtendedLifetime(client) {}
                }
            }
            try await group.waitForAll()
        }
        stop.withLock { $0 = true }
        try await ticker.value
        let gap = worstGap.withLock { $0 }
        #expect(gap < .seconds(10 * Self.slow), "a 10 ms sleep woke \(gap) later")
    }
}
