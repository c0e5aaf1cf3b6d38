import Courier
import CourierPrimitives
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server on 127.0.0.1 that answers every connection with a body that never ends (its
/// `Content-Length` is 1 TiB), written with blocking sends until the client goes away: a test
/// can then ask whether the server saw the connection closed, and how much it had sent.
///
/// With `giveUpAfter`, the server itself closes a connection once it has sent that many body
/// bytes on it, so that a client that reads everything before handing anything over (instead
/// of streaming) ends with a cut body, not with all of memory. A connection the server gave
/// up on does not count as closed by the client.
package final class EndlessBodyServer: Sendable {
    private struct State {
        var closed = 0
        var bytesSent: Int64 = 0
    }

    private let listener: LoopbackListener
    private let state: Locked<State>

    /// Starts listening on a free loopback port.
    /// - Parameters:
    ///   - giveUpAfter: how many body bytes to send on a connection before closing it; nil never
    ///     gives up.
    ///   - pause: the wait after each 64 KiB block (1 ms: about 64 MB/s at most).
    /// - Throws: `LoopbackPort.SetupError` when the socket cannot be set up.
    package init(giveUpAfter: Int64? = nil, pause: Duration = .milliseconds(1)) throws {
        let pauseMicroseconds = UInt32(
            clamping: pause.components.seconds * 1_000_000 + pause.components.attoseconds / 1_000_000_000_000)
        let state = Locked(State())
        listener = try LoopbackListener { connection in
            Self.serve(
                connection, state: state, giveUpAfter: giveUpAfter, pauseMicroseconds: pauseMicroseconds)
        }
        self.state = state
    }

    /// The port it listens on.
    package var port: Int { listener.port }

    /// The URL to request.
    package var url: URL { URL(string: "http://127.0.0.1:\(port)/endless")! }  // allowed: always a URL

    /// Connections accepted, how many of them the server saw closed by the client, and the body
    /// bytes sent on all of them.
    package var counts: (connections: Int, closed: Int, bytesSent: Int64) {
        let connections = listener.connectionCount
        return state.withLock { (connections, $0.closed, $0.bytesSent) }
    }

    /// Waits up to `timeout` for the client to close `count` connections.
    /// - Returns: whether it did.
    package func waitForClosed(_ count: Int = 1, within timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if counts.closed >= count { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return counts.closed >= count
    }

    /// Stops accepting connections; those open go on until their client leaves. Idempotent.
    package func stop() { listener.stop() }

    deinit { stop() }

    private static func serve(
        _ connection: LoopbackSocket, state: Locked<State>, giveUpAfter: Int64?, pauseMicroseconds: UInt32
    ) {
        func markClosed() { state.withLock { $0.closed += 1 } }
        connection.setTimeouts(receive: 60, send: 60)
        var head = Data()
        guard connection.receiveHead(into: &head) != nil else { return }
        let answer =
            "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1099511627776\r\n\r\n"
        guard connection.send(answer) else { return markClosed() }
        let block = Data(repeating: 0x5a, count: 64 * 1024)
        // Throttled (about 64 MB/s by default): a transport that cannot pause queues every chunk
        // it reads, so an unthrottled loopback stream would fill memory.
        var sent: Int64 = 0
        while connection.send(block) {
            sent += Int64(block.count)
            state.withLock { $0.bytesSent += Int64(block.count) }
            if let giveUpAfter, sent >= giveUpAfter { return }
            usleep(pauseMicroseconds)
        }
        markClosed()
    }
}
