import CourierPrimitives
import CourierTesting
import Foundation
import TestSupport
import Testing

@testable import MockServer

/// A descriptor the poller refuses (epoll_ctl failing) is never left unwatched in silence: the
/// connection gets a 500 saying why, and the refusal is logged.
@Suite(.blocksItsThread) struct PollerRefusalTests {
    /// The portable poller, refusing every descriptor after the listener.
    final class RefusingPoller: Poller {
        let inner: PortablePoller
        var adds = 0

        init() throws { inner = try PortablePoller() }

        var wakeFD: Int32 { inner.wakeFD }

        func add(_ fd: Int32, read: Bool, write: Bool) throws(SocketSystem.Failure) {
            adds += 1
            guard adds == 1 else {
                throw SocketSystem.Failure(call: "epoll_ctl(EPOLL_CTL_ADD)", code: ENOMEM)
            }
            inner.add(fd, read: read, write: write)
        }

        func modify(_ fd: Int32, read: Bool, write: Bool) throws(SocketSystem.Failure) {
            inner.modify(fd, read: read, write: write)
        }

        func remove(_ fd: Int32) { inner.remove(fd) }
        func wait(timeoutMilliseconds: Int32, _ body: (PollEvent) -> Void) {
            inner.wait(timeoutMilliseconds: timeoutMilliseconds, body)
        }
        func wake() { inner.wake() }
        func drainWake() { inner.drainWake() }
        func close() { inner.close() }
    }

    @Test func aConnectionThePollerRefusesGetsA500ThatSaysWhy() async throws {
        let logged = Locked<[String]>([])
        var configuration = MockServerConfiguration()
        configuration.eventLoopCount = 1
        configuration.makePoller = { try RefusingPoller() }
        configuration.log = { line in logged.withLock { $0.append(line) } }
        try await withMockServer(configuration: configuration) { server in
            let client = try RawClient(port: server.port)
            let response = try client.readResponse()
            #expect(response.status == 500)
            #expect(response.text.contains("cannot watch this connection"), "\(response.text)")
            #expect(response.text.contains("epoll_ctl(EPOLL_CTL_ADD) failed"), "\(response.text)")
        }
        let lines = logged.withLock { $0 }
        #expect(lines.contains { $0.contains("cannot watch this connection") }, "\(lines)")
    }
}
