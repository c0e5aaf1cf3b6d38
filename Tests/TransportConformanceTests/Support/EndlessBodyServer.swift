import Courier
import CourierPrimitives
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server on 127.0.0.1 that answers every connection with a body that never ends, written
/// with blocking sends until the client goes away: a test can then ask whether, and when,
/// the server saw the connection closed.
final class EndlessBodyServer: Sendable {
    private struct State {
        var connections = 0
        var closed = 0
        var bytesSent: Int64 = 0
    }

    let port: Int
    private let listener: Int32
    private let state = Locked(State())

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
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
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/endless")! }

    /// Connections accepted, and how many of them the server saw closed by the client.
    var counts: (connections: Int, closed: Int, bytesSent: Int64) {
        state.withLock { ($0.connections, $0.closed, $0.bytesSent) }
    }

    /// Waits up to `seconds` for the client to close `count` connections.
    func waitForClosed(_ count: Int = 1, seconds: Double = 10) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if counts.closed >= count { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return counts.closed >= count
    }

    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    deinit { stop() }

    private func acceptLoop() {
        defer { close(listener) }
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
        // At most about 64 MB/s: FoundationNetworking queues every chunk it reads for its
        // delegate without waiting, so an unthrottled loopback stream would fill memory.
        while sendAll(client, block) {
            state.withLock { $0.bytesSent += Int64(block.count) }
            usleep(1000)
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
