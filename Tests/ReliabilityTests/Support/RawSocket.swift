import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking loopback TCP socket for tests that speak raw bytes to the mock server.
///
/// Every read has a receive timeout, so a test never waits forever on a silent server.
// @unchecked: `fd` changes only in `close()`; a test may send from one thread while it reads on another,
// which the kernel allows on one socket.
final class RawSocket: @unchecked Sendable {
    /// A socket failure, with errno.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// How a read ended.
    enum ReadEnd: Equatable {
        /// The peer closed the connection (EOF).
        case closed
        /// The peer reset the connection.
        case reset
        /// Nothing arrived within the receive timeout.
        case timedOut
    }

    private(set) var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { close() }

    /// Connects to `127.0.0.1:port`.
    /// - Parameters:
    ///   - port: the port.
    ///   - timeout: the receive (and send) timeout in seconds.
    static func connect(port: Int, timeout: Double = 5) throws -> RawSocket {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        let socket = RawSocket(fd: fd)
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                SocketCalls.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw Failure(description: "connect() failed: errno \(errno)") }
        socket.setTimeout(timeout)
        return socket
    }

    /// A socket listening on a free loopback port.
    static func listener() throws -> RawSocket { try bound(listening: true) }

    /// A socket bound to a free loopback port. Unless `listening`, a connection to that port is refused,
    /// and no other socket can bind the port while this one is open.
    static func bound(listening: Bool) throws -> RawSocket {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        let socket = RawSocket(fd: fd)
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, !listening || listen(fd, 16) == 0 else {
            throw Failure(description: "bind/listen failed: errno \(errno)")
        }
        return socket
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// The bound local port.
    var localPort: Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Sets the receive and send timeouts.
    func setTimeout(_ seconds: Double) {
        var interval = timeval(
            tv_sec: Int(seconds), tv_usec: .init((seconds - Double(Int(seconds))) * 1_000_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Closes the socket (idempotent).
    func close() {
        if fd >= 0 {
            _ = SocketCalls.close(fd)
            fd = -1
        }
    }

    /// Sends every byte; returns false when the peer closed or reset the connection first.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                SocketCalls.send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    /// Sends text as UTF-8; returns false when the peer went away first.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads whatever arrives until the peer closes, resets or stays silent for the timeout, capped at
    /// `limit` bytes.
    func readAll(limit: Int = 1 << 20) -> (bytes: [UInt8], end: ReadEnd) {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while received.count < limit {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                received.append(contentsOf: chunk[0..<count])
                continue
            }
            if count == 0 { return (received, .closed) }
            if errno == ECONNRESET { return (received, .reset) }
            return (received, .timedOut)
        }
        return (received, .timedOut)
    }

    /// Reads until a complete response head has arrived (or the peer closes / times out) and returns its
    /// status code, or nil when no status line arrived.
    func readStatus() -> Int? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while received.count < 1 << 20 {
            if let text = String(bytes: received, encoding: .utf8), text.contains("\r\n\r\n") { break }
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            received.append(contentsOf: chunk[0..<count])
        }
        return Self.status(of: received)
    }

    /// The status code of the first status line in `bytes`.
    static func status(of bytes: [UInt8]) -> Int? {
        let text = String(decoding: bytes.prefix(64), as: UTF8.self)
        guard text.hasPrefix("HTTP/1.") else { return nil }
        let parts = text.split(separator: " ", maxSplits: 2)
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}
