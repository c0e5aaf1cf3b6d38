import CourierTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small proxy on 127.0.0.1, port 0, that records what it was asked to reach: an HTTP
/// forward proxy (absolute-form requests), HTTP `CONNECT` tunnels, and SOCKS5 `CONNECT`
/// (told apart by the first byte a client sends). Upstream hosts must be `127.0.0.1` or
/// `localhost`; nothing leaves loopback.
///
/// One thread accepts; each client gets a thread for the handshake and a pair of threads
/// copying bytes each way.
final class RecordingProxy: Sendable {
    /// One connection the proxy handled.
    struct Entry: Sendable, Equatable {
        enum Kind: String, Sendable {
            case forward, connect, socks5
        }
        var kind: Kind
        /// `host:port` the client asked for.
        var target: String
        /// The request line the client sent (HTTP kinds); empty for SOCKS5.
        var requestLine: String
        /// The `Proxy-Authorization` the client sent (HTTP kinds).
        var proxyAuthorization: String? = nil
    }

    let port: Int
    private let listener: Int32
    private let log = Box<[Entry]>([])
    private let stopped = Box(false)

    var entries: [Entry] { log.withLock { $0 } }
    var url: String { "http://127.0.0.1:\(port)" }
    var socksURL: String { "socks5://127.0.0.1:\(port)" }
    var socksHostnameURL: String { "socks5h://127.0.0.1:\(port)" }

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ConformanceSetupError("socket() failed: errno \(errno)") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw ConformanceSetupError("bind/listen failed: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        Thread { [self] in acceptLoop() }.start()
    }

    func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    deinit { stop() }

    private func acceptLoop() {
        defer { close(listener) }
        while !stopped.withLock({ $0 }) {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            Thread { [self] in handle(client) }.start()
        }
    }

    private func handle(_ client: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let first = Self.receive(client, atMost: 1), let byte = first.first else {
            close(client)
            return
        }
        if byte == 5 {
            socks(client)
        } else {
            http(client, first: first)
        }
    }

    // MARK: HTTP forward and CONNECT

    private func http(_ client: Int32, first: Data) {
        var buffer = first
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            guard let more = Self.receive(client, atMost: 64 * 1024) else {
                close(client)
                return
            }
            buffer.append(more)
        }
        guard let end = buffer.range(of: separator) else { return }
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        let rest = Data(buffer[end.upperBound...])
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst()
        let authorization = lines.first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { String($0.dropFirst("proxy-authorization:".count)).trimmingCharacters(in: .whitespaces) }
        let parts = requestLine.split(separator: " ").map(String.init)
        guard parts.count == 3 else {
            Self.reply(client, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            close(client)
            return
        }
        if parts[0] == "CONNECT" {
            log.withLock {
                $0.append(
                    Entry(
                        kind: .connect, target: parts[1], requestLine: requestLine,
                        proxyAuthorization: authorization))
            }
            guard let upstream = Self.connectUpstream(parts[1]) else {
                Self.reply(
                    client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                close(client)
                return
            }
            Self.reply(client, "HTTP/1.1 200 Connection Established\r\n\r\n")
            if !rest.isEmpty { Self.transmit(upstream, rest) }
            pipe(client, upstream)
            return
        }
        // Absolute form: the proxy sends the origin form on to the server, on a connection
        // of its own that closes after one exchange.
        guard let target = URLComponents(string: parts[1]), let host = target.host else {
            Self.reply(client, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            close(client)
            return
        }
        let authority = "\(host):\(target.port ?? 80)"
        log.withLock {
            $0.append(
                Entry(
                    kind: .forward, target: authority, requestLine: requestLine,
                    proxyAuthorization: authorization))
        }
        guard let upstream = Self.connectUpstream(authority) else {
            Self.reply(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            close(client)
            return
        }
        let path =
            (target.percentEncodedPath.isEmpty ? "/" : target.percentEncodedPath)
            + (target.percentEncodedQuery.map { "?" + $0 } ?? "")
        let kept = lines.filter {
            let name = $0.split(separator: ":").first?.lowercased() ?? ""
            return name != "connection" && name != "proxy-connection" && name != "proxy-authorization"
        }
        let forwarded = ([parts[0] + " " + path + " " + parts[2]] + kept + ["Connection: close", "", ""])
            .joined(separator: "\r\n")
        Self.transmit(upstream, Data(forwarded.utf8) + rest)
        pipe(client, upstream)
    }

    // MARK: SOCKS5

    private func socks(_ client: Int32) {
        // Greeting: VER(5) NMETHODS METHODS…; the first byte is already read.
        guard let count = Self.receiveExactly(client, 1)?.first,
            Self.receiveExactly(client, Int(count)) != nil
        else {
            close(client)
            return
        }
        Self.transmit(client, Data([5, 0]))  // no authentication
        // Request: VER CMD RSV ATYP ADDR PORT.
        guard let request = Self.receiveExactly(client, 4), request[1] == 1 else {
            close(client)
            return
        }
        let host: String
        switch request[3] {
        case 1:
            guard let address = Self.receiveExactly(client, 4) else { return Self.drop(client) }
            host = address.map(String.init).joined(separator: ".")
        case 3:
            guard let length = Self.receiveExactly(client, 1)?.first,
                let name = Self.receiveExactly(client, Int(length))
            else { return Self.drop(client) }
            host = String(decoding: name, as: UTF8.self)
        default:
            Self.transmit(client, Data([5, 8, 0, 1, 0, 0, 0, 0, 0, 0]))  // address type not supported
            return Self.drop(client)
        }
        guard let portBytes = Self.receiveExactly(client, 2) else { return Self.drop(client) }
        let port = Int(portBytes[portBytes.startIndex]) << 8 | Int(portBytes[portBytes.startIndex + 1])
        let target = "\(host):\(port)"
        log.withLock { $0.append(Entry(kind: .socks5, target: target, requestLine: "")) }
        guard let upstream = Self.connectUpstream(target) else {
            Self.transmit(client, Data([5, 5, 0, 1, 0, 0, 0, 0, 0, 0]))  // connection refused
            return Self.drop(client)
        }
        Self.transmit(client, Data([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]))
        pipe(client, upstream)
    }

    // MARK: Sockets

    /// Copies bytes both ways until each side has closed, then closes both.
    private func pipe(_ client: Int32, _ upstream: Int32) {
        var none = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &none, socklen_t(MemoryLayout<timeval>.size))
        let done = DispatchGroup()
        for (from, to) in [(client, upstream), (upstream, client)] {
            done.enter()
            Thread {
                while let data = Self.receive(from, atMost: 64 * 1024) {
                    if !Self.transmit(to, data) { break }
                }
                shutdown(to, Int32(SHUT_WR))
                done.leave()
            }.start()
        }
        done.wait()
        close(client)
        close(upstream)
    }

    private static func connectUpstream(_ authority: String) -> Int32? {
        // A port outside 0...65535 (from a client under test) would trap in `UInt16(port)`: refused instead.
        guard let colon = authority.lastIndex(of: ":"),
            let port = Int(authority[authority.index(after: colon)...]), UInt16(exactly: port) != nil
        else { return nil }
        let host = authority[..<colon]
        guard host == "127.0.0.1" || host == "localhost" else { return nil }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func receive(_ fd: Int32, atMost count: Int) -> Data? {
        var buffer = [UInt8](repeating: 0, count: count)
        while true {
            let received = recv(fd, &buffer, count, 0)
            if received > 0 { return Data(buffer[0..<received]) }
            if received < 0, errno == EINTR { continue }
            return nil
        }
    }

    private static func receiveExactly(_ fd: Int32, _ count: Int) -> Data? {
        var data = Data()
        while data.count < count {
            guard let more = receive(fd, atMost: count - data.count) else { return nil }
            data.append(more)
        }
        return data
    }

    @discardableResult
    private static func transmit(_ fd: Int32, _ data: Data) -> Bool {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0, errno == EINTR { continue }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    private static func drop(_ fd: Int32) { close(fd) }

    private static func reply(_ fd: Int32, _ text: String) { transmit(fd, Data(text.utf8)) }
}

/// A value behind a lock, for the proxy's threads.
private final class Box<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
