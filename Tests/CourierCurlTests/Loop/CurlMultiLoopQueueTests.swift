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

    private func request(_ server: MockServer, _ path: String) throws -> TransportRequest {
        TransportRequest(url: try #require(URL(string: server.baseURL.absoluteString + path)))
    }

    /// Starts a send in a task and waits until the transport has queued it, so that the
    /// order of the calls is the order of submission.
    private func submit(
        _ request: TransportRequest, to transport: CurlTransport, queued: Locked<Int>
    ) async throws -> Task<TransportResponse, any Error> {
        let before = queued.withLock { $0 }
        let task = Task { try await transport.send(request) }
        #expect(await eventually { queued.withLock { $0 } > before })
        return task
    }

    private func counting(_ queued: Locked<Int>) -> CurlLoopHook {
        { event in
            if case .queued = event { queued.withLock { $0 += 1 } }
        }
    }

    @Test func requestsWaitingForTheOneConnectionGoOutInTheOrderTheyWereSent() async throws {
        let arrivals = Arrivals(holdFor: .seconds(2))
        try await withMockServer(handlers: [arrivals.handler]) { server in
            let queued = Locked(0)
            let transport = CurlTransport(
                configuration: .init(maxConnectionsPerHost: 1), loopHook: counting(queued))
            let hold = try await submit(try request(server, "/hold"), to: transport, queued: queued)
            #expect(await eventually { arrivals.paths.withLock { $0 } == ["/hold"] })
            var waiting: [Task<TransportResponse, any Error>] = []
            for index in 0..<8 {
                waiting.append(
                    try await submit(try request(server, "/q\(index)"), to: transport, queued: queued))
            }
            #expect(try await hold.value.body.data == Data("held".utf8))
            for (index, task) in waiting.enumerated() {
                #expect(try await task.value.body.data == Data("ok /q\(index)".utf8))
            }
            #expect(arrivals.paths.withLock { $0 } == ["/hold"] + (0..<8).map { "/q\($0)" })
            #expect(transport.statistics.connectionsOpened == 1)
            await transport.shutdown()
        }
    }

    @Test func aWaitingRequestThatIsCancelledEndsWhileTheConnectionIsStillBusy() async throws {
        let arrivals = Arrivals(holdFor: .seconds(120))
        try await withMockServer(handlers: [arrivals.handler]) { server in
            let queued = Locked(0)
            let transport = CurlTransport(
                configuration: .init(maxConnectionsPerHost: 1), loopHook: counting(queued))
            let hold = try await submit(try request(server, "/hold"), to: transport, queued: queued)
            #expect(await eventually { arrivals.paths.withLock { $0 } == ["/hold"] })
            let cancelled = try await submit(try request(server, "/cancelled"), to: transport, queued: queued)
            let next = try await submit(try request(server, "/next"), to: transport, queued: queued)
            cancelled.cancel()
            let error = await #expect(throws: CourierError.self) { try await cancelled.value }
            #expect(error?.code == .cancelled)
            // The held request still has the connection, and the one behind the cancelled
            // request still waits for it.
            #expect(transport.loop.activeTransferCount == 1)
            hold.cancel()
            #expect(try await next.value.body.data == Data("ok /next".utf8))
            #expect(!arrivals.paths.withLock { $0 }.contains("/cancelled"))
            await transport.shutdown()
        }
    }

    @Test func shutdownEndsTheWaitingRequestsToo() async throws {
        let arrivals = Arrivals(holdFor: .seconds(120))
        try await withMockServer(handlers: [arrivals.handler]) { server in
            let queued = Locked(0)
            let transport = CurlTransport(
                configuration: .init(maxConnectionsPerHost: 1), loopHook: counting(queued))
            let hold = try await submit(try request(server, "/hold"), to: transport, queued: queued)
            #expect(await eventually { arrivals.paths.withLock { $0 } == ["/hold"] })
            let waiting = try await submit(try request(server, "/waiting"), to: transport, queued: queued)
            await transport.shutdown()
            for task in [hold, waiting] {
                let error = await #expect(throws: CourierError.self) { try await task.value }
                #expect(error?.code == .cancelled)
            }
            #expect(arrivals.paths.withLock { $0 } == ["/hold"])
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
        let arrivals = Arrivals(holdFor: .seconds(120))
        try await withMockServer(handlers: [arrivals.handler]) { server in
            let queued = Locked(0)
            let transport = CurlTransport(
                configuration: .init(maxConnectionsPerHost: 1), loopHook: counting(queued))
            let hold = try await submit(try request(server, "/hold"), to: transport, queued: queued)
            #expect(await eventually { arrivals.paths.withLock { $0 } == ["/hold"] })
            var late = try request(server, "/late")
            late.options.totalTimeout = .milliseconds(200)
            // Its time is up while it waits: it ends as it would have in flight, never sent.
            let waiting = try await submit(late, to: transport, queued: queued)
            try await releaseAfter(.milliseconds(400), hold)
            let error = await #expect(throws: CourierError.self) { try await waiting.value }
            #expect(error?.code == .timedOut)
            #expect(!arrivals.paths.withLock { $0 }.contains("/late"))
            await transport.shutdown()
        }
    }

    /// The deadline holds even while the connection stays busy: the waiting request fails on
    /// time, not when the connection frees.
    @Test(.timeLimit(.minutes(1))) func aWaitingRequestTimesOutWhileTheConnectionStaysBusy() async throws {
        let arrivals = Arrivals(holdFor: .seconds(120))
        try await withMockServer(handlers: [arrivals.handler]) { server in
            let queued = Locked(0)
            let transport = CurlTransport(
                configuration: .init(maxConnectionsPerHost: 1), loopHook: counting(queued))
            let hold = try await submit(try request(server, "/hold"), to: transport, queued: queued)
            #expect(await eventually { arrivals.paths.withLock { $0 } == ["/hold"] })
            var late = try request(server, "/late")
            late.options.totalTimeout = .milliseconds(300)
            let waiting = try await submit(late, to: transport, queued: queued)
            let error = await #expect(throws: CourierError.self) { try await waiting.value }
            #expect(error?.code == .timedOut)
            #expect(!arrivals.paths.withLock { $0 }.contains("/late"))
            hold.cancel()
            let held = await hold.result
            #expect(throws: CourierError.self, "the held request was still running") { try held.get() }
            await transport.shutdown()
        }
    }

    /// Deadlines of waiting requests are kept in order whatever order the timeouts come in, and
    /// those of requests no longer waiting (cancelled, or gone out) do not hold up the others.
    @Test(.timeLimit(.minutes(1))) func aShorterTimeoutBehindLongerOnesAndCancelledOnesStillExpiresOnTime()
        async throws
    {
        let arrivals = Arrivals(holdFor: .seconds(120))
        try await withMockServer(handlers: [arrivals.handler]) { server in
            let queued = Locked(0)
            let transport = CurlTransport(
                configuration: .init(maxConnectionsPerHost: 1), loopHook: counting(queued))
            let hold = try await submit(try request(server, "/hold"), to: transport, queued: queued)
            #expect(await eventually { arrivals.paths.withLock { $0 } == ["/hold"] })
            var long = try request(server, "/cancelled")
            long.options.totalTimeout = .seconds(60)
            let cancelled = try await submit(long, to: transport, queued: queued)
            long = try request(server, "/patient")
            long.options.totalTimeout = .seconds(60)
            let patient = try await submit(long, to: transport, queued: queued)
            cancelled.cancel()
            let error = await #expect(throws: CourierError.self) { try await cancelled.value }
            #expect(error?.code == .cancelled)
            var short = try request(server, "/short")
            short.options.totalTimeout = .milliseconds(300)
            let started = ContinuousClock.now
            let shortTask = try await submit(short, to: transport, queued: queued)
            let timedOut = await #expect(throws: CourierError.self) { try await shortTask.value }
            #expect(timedOut?.code == .timedOut)
            #expect(ContinuousClock.now - started < .seconds(30), "on time, not when the connection frees")
            hold.cancel()
            _ = await hold.result
            #expect(try await patient.value.body.data == Data("ok /patient".utf8))
            #expect(arrivals.paths.withLock { $0 } == ["/hold", "/patient"])
            await transport.shutdown()
        }
    }

    @Test func theWaitForAConnectionIsNotIdleTime() async throws {
        let arrivals = Arrivals(holdFor: .seconds(120))
        try await withMockServer(handlers: [arrivals.handler]) { server in
            let queued = Locked(0)
            let transport = CurlTransport(
                configuration: .init(maxConnectionsPerHost: 1), loopHook: counting(queued))
            let hold = try await submit(try request(server, "/hold"), to: transport, queued: queued)
            #expect(await eventually { arrivals.paths.withLock { $0 } == ["/hold"] })
            var patient = try request(server, "/patient")
            patient.options.idleTimeout = .milliseconds(300)
            // It waits longer than its idle timeout for the connection, then gets its answer.
            let waiting = try await submit(patient, to: transport, queued: queued)
            try await releaseAfter(.milliseconds(600), hold)
            #expect(try await waiting.value.body.data == Data("ok /patient".utf8))
            await transport.shutdown()
        }
    }

    @Test func eachOriginHasItsOwnQueue() async throws {
        let busy = Arrivals(holdFor: .seconds(120))
        let free = Arrivals(holdFor: .zero)
        try await withMockServer(handlers: [busy.handler]) { busyServer in
            try await withMockServer(handlers: [free.handler]) { freeServer in
                let queued = Locked(0)
                let transport = CurlTransport(
                    configuration: .init(maxConnectionsPerHost: 1), loopHook: counting(queued))
                let hold = try await submit(try request(busyServer, "/hold"), to: transport, queued: queued)
                #expect(await eventually { busy.paths.withLock { $0 } == ["/hold"] })
                // Another origin does not wait behind the busy one.
                let response = try await transport.send(try request(freeServer, "/other"))
                #expect(response.body.data == Data("ok /other".utf8))
                hold.cancel()
                _ = await hold.result
                await transport.shutdown()
            }
        }
    }
}
