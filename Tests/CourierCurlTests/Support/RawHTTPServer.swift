import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback server that answers every request with bytes the test wrote by hand, for
/// replies MockServer does not make (a chunked body with trailers), or with nothing at all.
///
/// One thread accepts; each connection gets its own thread, which reads request heads (no
/// request bodies), counts them, writes the reply for each (if any) and holds the connection
/// until the client closes it.
final class RawHTTPServer: Sendable {
    /// How requests are numbered for `reply`.
    enum Numbering: Sendable {
        /// From 0, over every request the server reads.
        case global
        /// From 0 on each connection.
        case perConnection
    }

    let port: Int
    private let listener: Int32
    private let numbering: Numbering
    private let readTimeout: Int
    private let reply: @Sendable (Int) -> Data?
    private let state = Mutex(State())

    private struct State {
        var requests = 0
        var connections = 0
        var stopped = false
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// Request heads read so far.
    var requestCount: Int { state.withLock { $0.requests } }
    /// Connections accepted so far.
    var connectionCount: Int { state.withLock { $0.connections } }

    /// Binds 127.0.0.1 on a free port and starts accepting.
    /// - Parameters:
    ///   - numbering: whether `reply` gets the request's number over the server or on its
    ///     connection.
    ///   - readTimeout: seconds a connection may wait for its next request before the server
    ///     closes it.
    ///   - reply: the bytes to answer the request with this number (0 for the first) with; nil
    ///     to leave it unanswered; no bytes to close the connection without an answer.
    init(
        numbering: Numbering = .global, readTimeout: Int = 10, reply: @escaping @Sendable (Int) -> Data?
    ) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        self.numbering = numbering
        self.readTimeout = readTimeout
        self.reply = reply
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Stops accepting; connections end when their clients close them.
    func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        // Wakes the accept thread, which closes the descriptor when it is done with it.
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    deinit { stop() }

    private func acceptLoop() {
        defer { close(listener) }
        while !state.withLock({ $0.stopped }) {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            state.withLock { $0.connections += 1 }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var received = Data()
        let separator = Data("\r\n\r\n".utf8)
        var onConnection = 0
        while true {
            while received.range(of: separator) == nil {
                let count = recv(client, &buffer, buffer.count, 0)
                guard count > 0 else { return }  // closed, or the receive timeout passed
                received.append(contentsOf: buffer[0..<count])
            }
            if let end = received.range(of: separator) { received.removeSubrange(..<end.upperBound) }
            let overall = state.withLock { state in
                defer { state.requests += 1 }
                return state.requests
            }
            defer { onConnection += 1 }
            guard let reply = reply(numbering == .global ? overall : onConnection) else { continue }
            if reply.isEmpty { return }  // closed without an answer
            var offset = 0
            while offset < reply.count {
                let sent = reply.withUnsafeBytes {
                    send(client, $0.baseAddress! + offset, reply.count - offset, Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 { return }
                offset += sent
            }
        }
    }
}
