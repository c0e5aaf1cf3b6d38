import Courier
import Foundation
import MockServer
import Synchronization
import TestSupport
import Testing

@testable import CourierCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How often the loop thread wakes (`Statistics.loopWakeups`): not for nothing, and not for a
/// request its caller could start itself. The bounds are counts of wake-ups per second of the
/// window, not times: a loop that spins wakes thousands of times a second, one that works as
/// designed a handful.
@Suite struct CurlMultiLoopWakeupTests {
    private static let routes = ClosureHandler { request in
        if request.path == "/held" {
            return ServerResponse(status: 200, body: .data(Data("held".utf8)), delay: .seconds(1))
        }
        return ServerResponse.text("ok \(request.path)", status: 200)
    }

    /// The loop's wake-ups while `body` ran, and the whole seconds (rounded up) it took.
    private static func wakeups(
        of transport: CurlTransport, during body: () async throws -> Void
    ) async rethrows -> (count: Int, seconds: Int) {
        let before = transport.statistics.loopWakeups
        let started = ContinuousClock.now
        try await body()
        let seconds = Int(((ContinuousClock.now - started) / .seconds(1)).rounded(.up))
        return (transport.statistics.loopWakeups - before, seconds)
    }

    private func get(_ server: MockServer, _ path: String) throws -> TransportRequest {
        TransportRequest(url: try #require(URL(string: server.baseURL.absoluteString + path)))
    }

    /// After its transfer ends, a transport with nothing to do sleeps: libcurl leaves no
    /// timeout behind it (the loop asks `curl_multi_timeout` afresh rather than keeping a
    /// "due now" that libcurl 7.88 never takes back when a handle is removed).
    @Test func anIdleTransportSleeps() async throws {
        try await withMockServer(handlers: [Self.routes]) { server in
            try await CurlTransport.with { transport in
                _ = try await transport.send(try get(server, "/one"))
                let (woken, seconds) = try await Self.wakeups(of: transport) {
                    try await Task.sleep(for: .milliseconds(600))
                }
                // Once a second at most (the loop's longest wait), however long a busy machine
                // made the sleep.
                #expect(woken <= seconds + 2, "the idle loop woke \(woken) times in \(seconds) s")
            }
        }
    }

    /// While a response is late, the loop wakes only for the idle check (every 250 ms), not
    /// continuously.
    @Test func aLateResponseDoesNotKeepTheLoopAwake() async throws {
        try await withMockServer(handlers: [Self.routes]) { server in
            try await CurlTransport.with { transport in
                _ = try await transport.send(try get(server, "/warm"))
                let (woken, seconds) = try await Self.wakeups(of: transport) {
                    let response = try await transport.send(try get(server, "/held"))
                    #expect(response.body.data == Data("held".utf8))
                }
                // Four idle checks a second, and the response.
                #expect(woken <= 4 * seconds + 4, "the loop woke \(woken) times in \(seconds) s")
            }
        }
    }

    /// A request sent while the loop waits is started by its caller: the loop wakes for the
    /// response at most, not also for the submission (which would make it two a request).
    ///
    /// Each request's wake-ups are counted from its submission up to its response's delivery on
    /// the loop (the loop's `.finished` event), not up to its caller's resumption: on a loaded
    /// machine the caller resumes late, and the loop's own short waits after the response (which
    /// libcurl asks for once a transfer ends) would fall inside the window.
    @Test func aRequestSentWhileTheLoopWaitsCostsItOneWakeupAtMost() async throws {
        let delivered = DeliveryProbe()
        // One connection serves every request: the server keeps it however long a loaded machine
        // stalls the test between two of them (its default idle timeout is a minute).
        var configuration = MockServerConfiguration()
        configuration.idleTimeout = .seconds(600)
        try await withMockServer(configuration: configuration, handlers: [Self.routes]) { server in
            let transport = CurlTransport(loopHook: delivered.hook)
            delivered.watch(transport)
            _ = try await transport.send(try get(server, "/warm"))
            let count = 10
            var woken = 0
            for index in 0..<count {
                // Time for the loop to finish its turn and settle into its wait (a short wait libcurl
                // asks for after a transfer ends passes meanwhile); on a loaded machine the turn can
                // take longer than the pause, so the request also waits until the loop is asleep: one
                // sent mid-turn is queued for the loop, which then wakes for it too.
                try await Task.sleep(for: .milliseconds(100))
                #expect(await eventually { transport.loop.isWaiting }, "the loop never waited again")
                let before = transport.loop.wakeupCount
                delivered.reset()
                let response = try await transport.send(try get(server, "/r\(index)"))
                #expect(response.body.data == Data("ok /r\(index)".utf8))
                // The loop reports the delivery just after it resumes the caller.
                #expect(await eventually { delivered.wakeups != nil }, "the loop reported no delivery")
                let atDelivery = try #require(delivered.wakeups)
                woken += atDelivery - before
            }
            #expect(woken <= count + 3, "\(woken) wake-ups of the loop for \(count) requests")
            #expect(transport.statistics.connectionsOpened == 1)
            await transport.shutdown()
        }
    }
}

/// The loop's wake-up count at the moment it delivered the last finished transfer.
private final class DeliveryProbe: Sendable {
    private let transport = Mutex<CurlTransport?>(nil)
    private let atDelivery = Mutex<Int?>(nil)

    var hook: CurlLoopHook {
        { [self] event in
            guard case .finished = event, let loop = transport.withLock({ $0?.loop }) else { return }
            let count = loop.wakeupCount
            atDelivery.withLock { $0 = count }
        }
    }

    /// The wake-ups counted when the loop delivered the last transfer since `reset()`, if it did.
    var wakeups: Int? { atDelivery.withLock { $0 } }

    func watch(_ transport: CurlTransport) { self.transport.withLock { $0 = transport } }

    func reset() { atDelivery.withLock { $0 = nil } }
}

/// A loop that always has work queued still reads its sockets.
@Suite struct CurlMultiLoopBusyTests {
    /// A task on the loop's executor that yields without end keeps a job queued at every turn,
    /// so the loop never waits; a response that arrives meanwhile is still read (the loop asks
    /// for ready sockets without waiting), not left until the idle timeout.
    @Test(.timeLimit(.minutes(1))) func aLoopKeptBusyByJobsStillReadsItsSockets() async throws {
        let late = ClosureHandler { _ in
            ServerResponse(status: 200, body: .data(Data("late".utf8)), delay: .milliseconds(300))
        }
        try await withMockServer(handlers: [late]) { server in
            try await CurlTransport.with { transport in
                let spinner = Task(executorPreference: transport.executor) {
                    while !Task.isCancelled { await Task.yield() }
                }
                defer { spinner.cancel() }
                let request = TransportRequest(
                    url: try #require(URL(string: server.baseURL.absoluteString + "/late")),
                    options: TransferOptions(idleTimeout: .seconds(3)))
                let response = try await transport.send(request)
                #expect(response.body.data == Data("late".utf8))
            }
        }
    }
}
