import Courier
import CourierPrimitives
import Foundation
import MockServer
import TestSupport
import Testing

@testable import CourierCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests above the connection cap wait in the transport's own queue, one per origin, and
/// go out first in, first out as connections free up.
@Suite struct CurlMultiLoopQueueTests {
    /// Records the order requests reach the server; `/hold…` is answered after `holdFor`.
    private final class Arrivals: Sendable {
        let paths = Locked<[String]>([])
        let holdFor: Duration

        init(holdFor: Duration) { self.holdFor = holdFor }

        var handler: ClosureHandler {
            ClosureHandler { [self] request in
                paths.withLock { $0.append(request.path) }
                if request.path.hasPrefix("/hold") {
                    return ServerResponse(status: 200, body: .data(Data("held".utf8)), delay: holdFor)
                }
                return ServerResponse.text("ok \(request.path)", status: 200)
            }
        }
    }

    private static func request(_ server: MockServer, _ path: String) throws -> TransportRequest {
        TransportRequest(url: try #require(URL(string: server.baseURL.absoluteString + path)))
    }

    /// Starts a send in a task and waits until the transport has queued it, so that the
    /// order of the calls is the order of submission.
    private static func submit(
        _ request: TransportRequest, to transport: CurlTransport, queued: Locked<Int>
    ) async throws -> Task<TransportResponse, any Error> {
        let before = queued.withLock { $0 }
        let task = Task { try await transport.send(request) }
        #expect(await eventually { queued.withLock { $0 } > before })
        return task
    }

    private static func counting(_ queued: Locked<Int>) -> CurlLoopHook {
        { event in
            if case .queued = event { queued.withLock { $0 += 1 } }
        }
    }

    /// A transport with one connection to a mock server, which a `/hold` request has taken (the
    /// server answers it after `holdFor`): the test's requests wait behind it.
    private struct HeldConnection {
        let server: MockServer
        let transport: CurlTransport
        let arrivals: Arrivals
        let hold: Task<TransportResponse, any Error>
        let queued: Locked<Int>

        func request(_ path: String) throws -> TransportRequest {
            try CurlMultiLoopQueueTests.request(server, path)
        }

        func submit(_ request: TransportRequest) async throws -> Task<TransportResponse, any Error> {
            try await CurlMultiLoopQueueTests.submit(request, to: transport, queued: queued)
        }

        func submit(_ path: String) async throws -> Task<TransportResponse, any Error> {
            try await submit(try request(path))
        }

        /// The paths that reached the server, in order.
        var paths: [String] { arrivals.paths.withLock { $0 } }
    }

    /// Runs `body` with a held connection, then shuts the transport down.
    private func withHeldConnection(
        holdFor: Duration = .seconds(120), _ body: (HeldConnection) async throws -> Void
    ) async throws {
        let arrivals = Arrivals(holdFor: holdFor)
        try await withMockServer(handlers: [arrivals.handler]) { server in
            let queued = Locked(0)
            let transport = CurlTransport(
                configuration: .init(maxConnectionsPerHost: 1), loopHook: Self.counting(queued))
            let hold = try await Self.submit(try Self.request(server, "/hold"), to: transport, queued: queued)
            #expect(await eventually { arrivals.paths.withLock { $0 } == ["/hold"] })
            try await body(
                HeldConnection(
                    server: server, transport: transport, arrivals: arrivals, hold: hold, queued: queued))
            await transport.shutdown()
        }
    }

    @Test func requestsWaitingForTheOneConnectionGoOutInTheOrderTheyWereSent() async throws {
        try await withHeldConnection(holdFor: .seconds(2)) { held in
            var waiting: [Task<TransportResponse, any Error>] = []
            for index in 0..<8 {
                waiting.append(try await held.submit("/q\(index)"))
            }
            #expect(try await held.hold.value.body.data == Data("held".utf8))
            for (index, task) in waiting.enumerated() {
                #expect(try await task.value.body.data == Data("ok /q\(index)".utf8))
            }
            #expect(held.paths == ["/hold"] + (0..<8).map { "/q\($0)" })
            #expect(held.transport.statistics.connectionsOpened == 1)
        }
    }

    @Test func aWaitingRequestThatIsCancelledEndsWhileTheConnectionIsStillBusy() async throws {
        try await withHeldConnection { held in
            let cancelled = try await held.submit("/cancelled")
            let next = try await held.submit("/next")
            cancelled.cancel()
            let error = await #expect(throws: CourierError.self) { try await cancelled.value }
            #expect(error?.code == .cancelled)
            // The held request still has the connection, and the one behind the cancelled
            // request still waits for it.
            #expect(held.transport.loop.activeTransferCount == 1)
            held.hold.cancel()
            #expect(try await next.value.body.data == Data("ok /next".utf8))
            #expect(!held.paths.contains("/cancelled"))
        }
    }

    @Test func shutdownEndsTheWaitingRequestsToo() async throws {
        try await withHeldConnection { held in
            let waiting = try await held.submit("/waiting")
            await held.transport.shutdown()
            for task in [held.hold, waiting] {
                let error = await #expect(throws: CourierError.self) { try await task.value }
                #expect(error?.code == .cancelled)
            }
            #expect(held.paths == ["/hold"])
        }
    }

    /// The held request never ends by itself: cancelling it, after `waiting`, gives the one
    /// behind it the connection's place, whatever the machine's load made of the time before.
    private func releaseAfter(_ waiting: Duration, _ hold: Task<TransportResponse, any Error>) async throws {
        try await Task.sleep(for: waiting)
        hold.cancel()
        _ = await hold.result
    }

    @Test func theTotalTimeoutCountsTheWaitForAConnection() async throws {
        try await withHeldConnection { held in
            var late = try held.request("/late")
            late.options.totalTimeout = .milliseconds(200)
            // Its time is up while it waits: it ends as it would have in flight, never sent.
            let waiting = try await held.submit(late)
            try await releaseAfter(.milliseconds(400), held.hold)
            let error = await #expect(throws: CourierError.self) { try await waiting.value }
            #expect(error?.code == .timedOut)
            #expect(!held.paths.contains("/late"))
        }
    }

    /// The deadline holds even while the connection stays busy: the waiting request fails on
    /// time, not when the connection frees.
    @Test(.timeLimit(.minutes(1))) func aWaitingRequestTimesOutWhileTheConnectionStaysBusy() async throws {
        try await withHeldConnection { held in
            var late = try held.request("/late")
            late.options.totalTimeout = .milliseconds(300)
            let waiting = try await held.submit(late)
            let error = await #expect(throws: CourierError.self) { try await waiting.value }
            #expect(error?.code == .timedOut)
            #expect(!held.paths.contains("/late"))
            held.hold.cancel()
            let result = await held.hold.result
            #expect(throws: CourierError.self, "the held request was still running") { try result.get() }
        }
    }

    /// Deadlines of waiting requests are kept in order whatever order the timeouts come in, and
    /// those of requests no longer waiting (cancelled, or gone out) do not hold up the others.
    @Test(.timeLimit(.minutes(1))) func aShorterTimeoutBehindLongerOnesAndCancelledOnesStillExpiresOnTime()
        async throws
    {
        try await withHeldConnection { held in
            var long = try held.request("/cancelled")
            long.options.totalTimeout = .seconds(60)
            let cancelled = try await held.submit(long)
            long = try held.request("/patient")
            long.options.totalTimeout = .seconds(60)
            let patient = try await held.submit(long)
            cancelled.cancel()
            let error = await #expect(throws: CourierError.self) { try await cancelled.value }
            #expect(error?.code == .cancelled)
            var short = try held.request("/short")
            short.options.totalTimeout = .milliseconds(300)
            let started = ContinuousClock.now
            let shortTask = try await held.submit(short)
            let timedOut = await #expect(throws: CourierError.self) { try await shortTask.value }
            #expect(timedOut?.code == .timedOut)
            #expect(ContinuousClock.now - started < .seconds(30), "on time, not when the connection frees")
            held.hold.cancel()
            _ = await held.hold.result
            #expect(try await patient.value.body.data == Data("ok /patient".utf8))
            #expect(held.paths == ["/hold", "/patient"])
        }
    }

    @Test func theWaitForAConnectionIsNotIdleTime() async throws {
        try await withHeldConnection { held in
            var patient = try held.request("/patient")
            patient.options.idleTimeout = .milliseconds(300)
            // It waits longer than its idle timeout for the connection, then gets its answer.
            let waiting = try await held.submit(patient)
            try await releaseAfter(.milliseconds(600), held.hold)
            #expect(try await waiting.value.body.data == Data("ok /patient".utf8))
        }
    }

    @Test func eachOriginHasItsOwnQueue() async throws {
        let busy = Arrivals(holdFor: .seconds(120))
        let free = Arrivals(holdFor: .zero)
        try await withMockServer(handlers: [busy.handler]) { busyServer in
            try await withMockServer(handlers: [free.handler]) { freeServer in
                let queued = Locked(0)
                let transport = CurlTransport(
                    configuration: .init(maxConnectionsPerHost: 1), loopHook: Self.counting(queued))
                let hold = try await Self.submit(
                    try Self.request(busyServer, "/hold"), to: transport, queued: queued)
                #expect(await eventually { busy.paths.withLock { $0 } == ["/hold"] })
                // Another origin does not wait behind the busy one.
                let response = try await transport.send(try Self.request(freeServer, "/other"))
                #expect(response.body.data == Data("ok /other".utf8))
                hold.cancel()
                _ = await hold.result
                await transport.shutdown()
            }
        }
    }
}
