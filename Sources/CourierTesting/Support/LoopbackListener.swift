import CourierPrimitives
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP listener on a free 127.0.0.1 port that serves each accepted connection on a thread of
/// its own: the one socket loop under every server the tests write by hand (exact bytes on the
/// wire, a body that never ends, a proxy), so that none of them binds, accepts or stops its own way.
///
/// The connection is closed when `serve` returns. `stop()` only wakes the accept thread, which
/// closes the listening descriptor when it is done with it, so the number cannot be reused by
/// another socket while `accept` still uses it.
package final class LoopbackListener: Sendable {
    private struct State {
        var connections = 0
        var stopped = false
    }

    /// The port it listens on.
    package let port: Int
    private let listener: Int32
    private let serve: @Sendable (LoopbackSocket) -> Void
    private let state = Locked(State())

    /// Binds a free loopback port and starts accepting.
    /// - Parameters:
    ///   - backlog: how many connections may wait to be accepted.
    ///   - serve: what to do with each connection, on its own thread; the socket is closed after.
    /// - Throws: `LoopbackPort.SetupError` when the socket cannot be set up.
    package init(backlog: Int32 = 64, serve: @escaping @Sendable (LoopbackSocket) -> Void) throws {
        (listener, port) = try LoopbackPort.listeningSocket(backlog: backlog)
        self.serve = serve
        Thread { [self] in acceptLoop() }.start()
    }

    /// `http://127.0.0.1:PORT`.
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }  // allowed: always a URL

    /// Connections accepted so far.
    package var connectionCount: Int { state.withLock { $0.connections } }

    /// Stops accepting; connections already accepted go on until `serve` returns. Idempotent.
    package func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    deinit { stop() }

    private func acceptLoop() {
        defer { close(listener) }
        while !state.withLock({ $0.stopped }) {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            state.withLock { $0.connections += 1 }
            let serve = self.serve
            Thread {
                let socket = LoopbackSocket(client)
                defer { socket.close() }
                serve(socket)
            }.start()
        }
    }
}

/// One connected TCP socket, read and written with blocking calls: a connection a
/// `LoopbackListener` accepted, or one made to a loopback port.
package struct LoopbackSocket: Sendable {
    /// The descriptor.
    package let descriptor: Int32

    package init(_ descriptor: Int32) { self.descriptor = descriptor }

    /// Connects to `port` on 127.0.0.1; nil when nothing accepts there.
    package static func connect(port: Int) -> LoopbackSocket? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(truncatingIfNeeded: port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            systemClose(fd)
            return nil
        }
        return LoopbackSocket(fd)
    }

    /// Makes a receive (a send) that waits longer than `receive` (`send`) seconds fail.
    package func setTimeouts(receive: Int? = nil, send: Int? = nil) {
        for (option, seconds) in [(SO_RCVTIMEO, receive), (SO_SNDTIMEO, send)] {
            guard let seconds else { continue }
            var timeout = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Up to `count` bytes; nil when the peer closed, the receive timed out or failed.
    package func receive(atMost count: Int = 64 * 1024) -> Data? {
        var buffer = [UInt8](repeating: 0, count: count)
        while true {
            let received = recv(descriptor, &buffer, count, 0)
            if received > 0 { return Data(buffer[0..<received]) }
            if received < 0, errno == EINTR { continue }
            return nil
        }
    }

    /// Exactly `count` bytes; nil when the connection ended first.
    package func receive(exactly count: Int) -> Data? {
        var data = Data()
        while data.count < count {
            guard let more = receive(atMost: count - data.count) else { return nil }
            data.append(more)
        }
        return data
    }

    /// Reads into `buffer` until it holds a whole request or response head; returns the range of
    /// the blank line that ends it, nil when the connection ended first.
    package func receiveHead(into buffer: inout Data) -> Range<Data.Index>? {
        let separator = Data("\r\n\r\n".utf8)
        while true {
            if let end = buffer.range(of: separator) { return end }
            guard let more = receive() else { return nil }
            buffer.append(more)
        }
    }

    /// Sends all of `data`; false when the connection failed first.
    @discardableResult
    package func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                // allowed: `raw.count > 0` here, so the buffer has an address.
                let sent = systemSend(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if sent < 0, errno == EINTR { continue }
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    /// Sends `text` as UTF-8; false when the connection failed first.
    @discardableResult
    package func send(_ text: String) -> Bool { send(Data(text.utf8)) }

    /// Ends the sending direction: the peer reads the end of the stream.
    package func shutdownSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    /// Shuts both directions down, waking a thread blocked on the socket; the descriptor stays open.
    package func shutdownBoth() { shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Closes the descriptor.
    package func close() { systemClose(descriptor) }
}

// The C calls by other names: `LoopbackSocket`'s own `connect`, `send` and `close` hide them inside it.
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    send(fd, bytes, count, Int32(MSG_NOSIGNAL))
}

private func systemClose(_ fd: Int32) { close(fd) }
