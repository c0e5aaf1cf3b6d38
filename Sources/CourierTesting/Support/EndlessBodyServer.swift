import Courier
import CourierPrimitives
import Foundation

#if canImport(Glibc)
    import Glibc
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
        var connections = 0
        var closed = 0
        var bytesSent: Int64 = 0
        /// Whether `listener` is still this server's descriptor: once closed, its number may
        /// belong to another socket, which `stop` must not shut down.
        var listening = true
    }

    /// The port it listens on.
    package let port: Int
    private let listener: Int32
    private let giveUpAfter: Int64?
    private let pauseMicroseconds: UInt32
    private let state = Locked(State())

    /// Starts listening on a free loopback port.
    /// - Parameters:
    ///   - giveUpAfter: how many body bytes to send on a connection before closing it; nil never
    ///     gives up.
    ///   - pause: the wait after each 64 KiB block (1 ms: about 64 MB/s at most).
    /// - Throws: `LoopbackPort.SetupError` when the socket cannot be set up.
    package init(giveUpAfter: Int64? = nil, pause: Duration = .milliseconds(1)) throws {
        self.giveUpAfter = giveUpAfter
        pauseMicroseconds = UInt32(
            clamping: pause.components.seconds * 1_000_000 + pause.components.attoseconds / 1_000_000_000_000)
        (listener, port) = try LoopbackPort.listeningSocket()
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The URL to request.
    package var url: URL { URL(string: "http://127.0.0.1:\(port)/endless")! }  // allowed: always a URL

    /// Connections accepted, how many of them the server saw closed by the client, and the body
    /// bytes sent on all of them.
    package var counts: (connections: Int, closed: Int, bytesSent: Int64) {
        state.withLock { ($0.connections, $0.closed, $0.bytesSent) }
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

    /// Stops accepting connections; those open go on until their client leaves.
    /// Idempotent, and safe after the accept loop has closed the socket.
    package func stop() {
        state.withLock { state in
            if state.listening { shutdown(listener, Int32(SHUT_RDWR)) }
        }
    }

    deinit { stop() }

    private func acceptLoop() {
        defer {
            state.withLock { state in
                state.listening = false
                close(listener)
            }
        }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            state.withLock { $0.connections += 1 }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head = [UInt8]()
        var byte = [UInt8](repeating: 0, count: 1)
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard recv(client, &byte, 1, 0) == 1 else { return }
            head.append(byte[0])
        }
        let answer = Array(
            "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1099511627776\r\n\r\n"
                .utf8)
        guard sendAll(client, answer) else { return markClosed() }
        let block = [UInt8](repeating: 0x5a, count: 64 * 1024)
        // Throttled (about 64 MB/s by default): a transport that cannot pause queues every chunk
        // it reads, so an unthrottled loopback stream would fill memory.
        var sent: Int64 = 0
        while sendAll(client, block) {
            sent += Int64(block.count)
            state.withLock { $0.bytesSent += Int64(block.count) }
            if let giveUpAfter, sent >= giveUpAfter { return }
            usleep(pauseMicroseconds)
        }
        markClosed()
    }

    private func markClosed() { state.withLock { $0.closed += 1 } }

    private func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }
}
