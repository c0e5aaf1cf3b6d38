import CourierPrimitives
import CourierTesting
import Foundation

/// A small proxy on 127.0.0.1, port 0, that records what it was asked to reach: an HTTP
/// forward proxy (absolute-form requests), HTTP `CONNECT` tunnels, and SOCKS5 `CONNECT`
/// (told apart by the first byte a client sends). Upstream hosts must be `127.0.0.1` or
/// `localhost`; nothing leaves loopback.
///
/// Each client gets a thread for the handshake (`LoopbackListener`) and a pair of threads
/// copying bytes each way.
public final class RecordingProxy: Sendable {
    /// One connection the proxy handled.
    public struct Entry: Sendable, Equatable {
        public enum Kind: String, Sendable {
            case forward, connect, socks5
        }
        public var kind: Kind
        /// `host:port` the client asked for.
        public var target: String
        /// The request line the client sent (HTTP kinds); empty for SOCKS5.
        public var requestLine: String
        /// The `Proxy-Authorization` the client sent (HTTP kinds).
        public var proxyAuthorization: String? = nil
        /// Every `User-Agent` value the client sent the proxy (HTTP kinds), in order.
        public var userAgents: [String] = []

        public init(
            kind: Kind, target: String, requestLine: String, proxyAuthorization: String? = nil,
            userAgents: [String] = []
        ) {
            self.kind = kind
            self.target = target
            self.requestLine = requestLine
            self.proxyAuthorization = proxyAuthorization
            self.userAgents = userAgents
        }
    }

    private let listener: LoopbackListener
    private let log: Locked<[Entry]>

    public var port: Int { listener.port }
    public var entries: [Entry] { log.withLock { $0 } }
    public var url: String { "http://127.0.0.1:\(port)" }
    public var socksURL: String { "socks5://127.0.0.1:\(port)" }
    public var socksHostnameURL: String { "socks5h://127.0.0.1:\(port)" }

    public init() throws {
        let log = Locked<[Entry]>([])
        listener = try LoopbackListener { client in Self.handle(client, log: log) }
        self.log = log
    }

    public func stop() { listener.stop() }

    deinit { stop() }

    private static func handle(_ client: LoopbackSocket, log: Locked<[Entry]>) {
        client.setTimeouts(receive: 10)
        guard let first = client.receive(atMost: 1), let byte = first.first else { return }
        if byte == 5 {
            socks(client, log: log)
        } else {
            http(client, first: first, log: log)
        }
    }

    // MARK: HTTP forward and CONNECT

    private static func http(_ client: LoopbackSocket, first: Data, log: Locked<[Entry]>) {
        var buffer = first
        guard let end = client.receiveHead(into: &buffer) else { return }
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        let rest = Data(buffer[end.upperBound...])
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst()
        let authorization = lines.first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { String($0.dropFirst("proxy-authorization:".count)).trimmingCharacters(in: .whitespaces) }
        let userAgents = lines.filter { $0.lowercased().hasPrefix("user-agent:") }
            .map { String($0.dropFirst("user-agent:".count)).trimmingCharacters(in: .whitespaces) }
        let parts = requestLine.split(separator: " ").map(String.init)
        guard parts.count == 3 else {
            client.send("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        if parts[0] == "CONNECT" {
            log.withLock {
                $0.append(
                    Entry(
                        kind: .connect, target: parts[1], requestLine: requestLine,
                        proxyAuthorization: authorization, userAgents: userAgents))
            }
            guard let upstream = Self.connectUpstream(parts[1]) else {
                client.send("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            }
            client.send("HTTP/1.1 200 Connection Established\r\n\r\n")
            if !rest.isEmpty { upstream.send(rest) }
            pipe(client, upstream)
            return
        }
        // Absolute form: the proxy sends the origin form on to the server, on a connection
        // of its own that closes after one exchange.
        guard let target = URLComponents(string: parts[1]), let host = target.host else {
            client.send("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        let authority = "\(host):\(target.port ?? 80)"
        log.withLock {
            $0.append(
                Entry(
                    kind: .forward, target: authority, requestLine: requestLine,
                    proxyAuthorization: authorization, userAgents: userAgents))
        }
        guard let upstream = Self.connectUpstream(authority) else {
            client.send("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
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
        upstream.send(Data(forwarded.utf8) + rest)
        pipe(client, upstream)
    }

    // MARK: SOCKS5

    private static func socks(_ client: LoopbackSocket, log: Locked<[Entry]>) {
        // Greeting: VER(5) NMETHODS METHODS…; the first byte is already read.
        guard let count = client.receive(exactly: 1)?.first, client.receive(exactly: Int(count)) != nil else {
            return
        }
        client.send(Data([5, 0]))  // no authentication
        // Request: VER CMD RSV ATYP ADDR PORT.
        guard let request = client.receive(exactly: 4), request[1] == 1 else { return }
        let host: String
        switch request[3] {
        case 1:
            guard let address = client.receive(exactly: 4) else { return }
            host = address.map(String.init).joined(separator: ".")
        case 3:
            guard let length = client.receive(exactly: 1)?.first,
                let name = client.receive(exactly: Int(length))
            else { return }
            host = String(decoding: name, as: UTF8.self)
        default:
            client.send(Data([5, 8, 0, 1, 0, 0, 0, 0, 0, 0]))  // address type not supported
            return
        }
        guard let portBytes = client.receive(exactly: 2) else { return }
        let port = Int(portBytes[portBytes.startIndex]) << 8 | Int(portBytes[portBytes.startIndex + 1])
        let target = "\(host):\(port)"
        log.withLock { $0.append(Entry(kind: .socks5, target: target, requestLine: "")) }
        guard let upstream = Self.connectUpstream(target) else {
            client.send(Data([5, 5, 0, 1, 0, 0, 0, 0, 0, 0]))  // connection refused
            return
        }
        client.send(Data([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]))
        pipe(client, upstream)
    }

    // MARK: Sockets

    /// Copies bytes both ways until each side has closed, then closes the upstream connection
    /// (the listener closes the client's).
    private static func pipe(_ client: LoopbackSocket, _ upstream: LoopbackSocket) {
        client.setTimeouts(receive: 0)
        let done = DispatchGroup()
        for (from, to) in [(client, upstream), (upstream, client)] {
            done.enter()
            Thread {
                while let data = from.receive() {
                    if !to.send(data) { break }
                }
                to.shutdownSending()
                done.leave()
            }.start()
        }
        done.wait()
        upstream.close()
    }

    private static func connectUpstream(_ authority: String) -> LoopbackSocket? {
        // A port outside 0...65535 (from a client under test) is refused.
        guard let colon = authority.lastIndex(of: ":"),
            let port = Int(authority[authority.index(after: colon)...]), UInt16(exactly: port) != nil
        else { return nil }
        let host = authority[..<colon]
        guard host == "127.0.0.1" || host == "localhost" else { return nil }
        return LoopbackSocket.connect(port: port)
    }
}
