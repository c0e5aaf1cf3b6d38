import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny HTTP/1.1 responder on 127.0.0.1, port 0, for tests that need exact bytes on the wire
/// (a 304 with a `Content-Length`, a close-delimited body).
///
/// One thread accepts connections and answers each one on its own thread with
/// `Connection: close`. Only what the smoke tests need: a request head, a
/// `Content-Length` body, and a canned answer. The full server is MockServer.
public final class LoopbackServer: Sendable {
    /// A request as received; header names lowercased.
    public struct Request: Sendable {
        public var method: String
        public var target: String
        public var headers: [String: String]
        public var body: Data
    }

    /// The answer to send. A `Content-Length` in `headers` is sent as given, whatever the body.
    public struct Reply: Sendable {
        public var status: Int = 200
        public var headers: [(String, String)] = []
        public var body = Data()
        public var delay: TimeInterval = 0
        /// Send no `Content-Length`: the body ends when the connection closes.
        public var closeDelimited = false

        public init(
            status: Int = 200, headers: [(String, String)] = [], body: Data = Data(), delay: TimeInterval = 0,
            closeDelimited: Bool = false
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.closeDelimited = closeDelimited
        }

        public static func text(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> Reply
        {
            Reply(status: status, headers: [("Content-Type", "text/plain")] + headers, body: Data(text.utf8))
        }
    }

    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private let received = LockedBox<[Request]>([])
    private let stopped = LockedBox(false)

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    public var requests: [Request] { received.withLock { $0 } }

    public init(_ handler: @escaping @Sendable (Request) -> Reply) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        self.handler = handler
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        // Only wakes the accept thread (accept fails on a shut-down listener); that thread closes
        // the descriptor when it is done with it, so its number cannot be reused under accept.
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    deinit { stop() }

    private func acceptLoop() {
        defer { close(listener) }
        while !stopped.withLock({ $0 }) {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        func fill() -> Bool {
            let count = recv(client, &chunk, chunk.count, 0)
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        let separator = Data("\r\n\r\n".utf8)
        var headEnd: Range<Data.Index>?
        while headEnd == nil {
            guard fill() else { return }
            headEnd = buffer.range(of: separator)
        }
        guard let headEnd else { return }
        let head = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            _ = Data("HTTP/1.1 100 Continue\r\n\r\n".utf8).withUnsafeBytes {
                send(client, $0.baseAddress, $0.count, 0)
            }
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        var body = Data(buffer[headEnd.upperBound...])
        while body.count < length {
            let before = buffer.count
            guard fill() else { return }
            body.append(buffer[before...])
        }
        let request = Request(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
        received.withLock { $0.append(request) }
        let reply = handler(request)
        if reply.delay > 0 { Thread.sleep(forTimeInterval: reply.delay) }
        var text = "HTTP/1.1 \(reply.status) Status\r\nConnection: close\r\n"
        var hasLength = false
        for (name, value) in reply.headers {
            text += "\(name): \(value)\r\n"
            if name.lowercased() == "content-length" { hasLength = true }
        }
        if !hasLength && !reply.closeDelimited { text += "Content-Length: \(reply.body.count)\r\n" }
        var output = Data((text + "\r\n").utf8)
        if request.method != "HEAD" { output.append(reply.body) }
        var offset = 0
        while offset < output.count {
            let sent = output.withUnsafeBytes {
                send(client, $0.baseAddress! + offset, output.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return }
            offset += sent
        }
    }
}

/// A value behind an `NSLock` (this target imports nothing of Courier's).
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
