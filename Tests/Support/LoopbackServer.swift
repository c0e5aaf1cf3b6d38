import CourierPrimitives
import CourierTesting
import Foundation

/// A tiny HTTP/1.1 responder on 127.0.0.1, port 0, for tests that need exact bytes on the wire
/// (a 304 with a `Content-Length`, a close-delimited body).
///
/// Each connection is answered on its own thread (`LoopbackListener`) with `Connection: close`. Only what the smoke tests need: a request head, a
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

    private let listener: LoopbackListener
    private let received: Locked<[Request]>

    public var port: Int { listener.port }
    public var baseURL: URL { listener.baseURL }
    public var requests: [Request] { received.withLock { $0 } }

    public init(_ handler: @escaping @Sendable (Request) -> Reply) throws {
        let received = Locked<[Request]>([])
        listener = try LoopbackListener { connection in
            guard let request = Self.read(connection) else { return }
            received.withLock { $0.append(request) }
            Self.answer(request, with: handler(request), on: connection)
        }
        self.received = received
    }

    /// Stops accepting. Idempotent.
    public func stop() { listener.stop() }

    deinit { stop() }

    private static func read(_ connection: LoopbackSocket) -> Request? {
        connection.setTimeouts(receive: 5)
        var buffer = Data()
        guard let headEnd = connection.receiveHead(into: &buffer) else { return nil }
        let head = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            connection.send("HTTP/1.1 100 Continue\r\n\r\n")
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        var body = Data(buffer[headEnd.upperBound...])
        if body.count < length {
            guard let rest = connection.receive(exactly: length - body.count) else { return nil }
            body.append(rest)
        }
        return Request(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    private static func answer(_ request: Request, with reply: Reply, on connection: LoopbackSocket) {
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
        connection.send(output)
    }
}
