import Courier
import CourierCurl
import Endpoints
import Foundation
import MockServer
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Raw, hostile clients against the mock server: smuggling shapes, size limits, slow and idle
/// connections, path traversal and oversized uploads.
@Suite(.blocksItsThread, .timeLimit(.minutes(1)))
struct HostileServerTests {
    /// A request whose framing is ambiguous, followed by a request that must never be processed.
    struct SmugglingCase: Sendable, CustomTestStringConvertible {
        var name: String
        var headers: String
        var statuses: Set<Int>

        var testDescription: String { name }

        /// The bytes sent: the ambiguous head, then a body that is itself a second request.
        var bytes: String {
            "POST /target HTTP/1.1\r\nHost: t\r\n\(headers)\r\n"
                + "0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n"
        }
    }

    static let smuggling: [SmugglingCase] = [
        .init(
            name: "CL+TE", headers: "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", statuses: [400]),
        .init(
            name: "TE+CL", headers: "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", statuses: [400]),
        .init(
            name: "duplicate differing CL", headers: "Content-Length: 5\r\nContent-Length: 41\r\n",
            statuses: [400]),
        .init(
            name: "duplicate equal CL", headers: "Content-Length: 5\r\nContent-Length: 5\r\n", statuses: [400]
        ),
        .init(name: "CL list", headers: "Content-Length: 5, 41\r\n", statuses: [400]),
        .init(name: "CL with sign", headers: "Content-Length: +5\r\n", statuses: [400]),
        .init(
            name: "TE chunked, identity", headers: "Transfer-Encoding: chunked, identity\r\n",
            statuses: [400, 501]),
        .init(name: "TE identity", headers: "Transfer-Encoding: identity\r\n", statuses: [400, 501]),
        .init(name: "TE xchunked", headers: "Transfer-Encoding: xchunked\r\n", statuses: [400, 501]),
        .init(
            name: "TE chunked twice", headers: "Transfer-Encoding: chunked, chunked\r\n",
            statuses: [400, 501]),
        .init(
            name: "TE two fields", headers: "Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n",
            statuses: [400, 501]),
        .init(name: "TE space before colon", headers: "Transfer-Encoding : chunked\r\n", statuses: [400]),
        .init(name: "TE folded", headers: "Transfer-Encoding:\r\n chunked\r\n", statuses: [400]),
        .init(name: "TE bare LF", headers: "X: y\nTransfer-Encoding: chunked\r\n", statuses: [400]),
        .init(name: "TE vertical tab", headers: "Transfer-Encoding:\u{0B}chunked\r\n", statuses: [400, 501]),
        .init(
            name: "CL + quoted TE", headers: "Content-Length: 5\r\nTransfer-Encoding: \"chunked\"\r\n",
            statuses: [400, 501]),
    ]

    /// Counts requests per path.
    static func countingHandler(_ counter: Counter, path: String) -> ClosureHandler {
        ClosureHandler { request in
            guard request.path == path else { return nil }
            counter.increment()
            return .text("served \(request.path)", status: 200)
        }
    }

    @Test(arguments: smuggling)
    func smugglingShapeIsRefusedAndClosed(_ shape: SmugglingCase) async throws {
        let smuggled = Counter()
        let target = Counter()
        let handlers = [
            Self.countingHandler(smuggled, path: "/smuggled"), Self.countingHandler(target, path: "/target"),
        ]
        try await withMockServer(handlers: handlers) { server in
            let socket = try RawSocket.connect(port: server.port, timeout: 3)
            socket.send(shape.bytes)
            let (bytes, end) = socket.readAll()
            let status = RawSocket.status(of: bytes)
            #expect(status.map { shape.statuses.contains($0) } == true, "\(shape.name): got \(status as Any)")
            #expect(end != .timedOut, "\(shape.name): the connection was left open")
            let responses =
                String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").count - 1
            #expect(responses == 1, "\(shape.name): \(responses) responses")
        }
        #expect(smuggled.count == 0)
        #expect(target.count == 0)
    }

    /// Limits on the request line, header block and header count.
    struct LimitCase: Sendable, CustomTestStringConvertible {
        var name: String
        var request: String
        var status: Int
        var testDescription: String { name }
    }

    static let limits: [LimitCase] = [
        .init(
            name: "request line 9 KB",
            request: "GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: t\r\n\r\n",
            status: 414),
        .init(
            name: "request line 1 MB without CRLF",
            request: "GET /\(String(repeating: "a", count: 1 << 20))", status: 414),
        .init(
            name: "header block 20 KB",
            request: "GET / HTTP/1.1\r\nHost: t\r\n"
                + (0..<20).map { "X-Pad-\($0): \(String(repeating: "b", count: 1000))\r\n" }.joined()
                + "\r\n",
            status: 431),
        .init(
            name: "one 64 KB header without end",
            request: "GET / HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "c", count: 65536))",
            status: 431),
        .init(
            name: "150 header fields",
            request: "GET / HTTP/1.1\r\nHost: t\r\n" + (0..<150).map { "X-\($0): v\r\n" }.joined() + "\r\n",
            status: 431),
    ]

    @Test(arguments: limits)
    func sizeLimitIsEnforced(_ limit: LimitCase) async throws {
        let served = Counter()
        try await withMockServer(handlers: [Self.countingHandler(served, path: "/")]) { server in
            let socket = try RawSocket.connect(port: server.port, timeout: 3)
            socket.send(limit.request)
            let (bytes, end) = socket.readAll()
            #expect(RawSocket.status(of: bytes) == limit.status, "\(limit.name)")
            #expect(end != .timedOut, "\(limit.name): the connection was left open")
        }
        #expect(served.count == 0)
    }

    /// Sends `GET /ping` on a fresh connection and returns the status (nil when none arrived in 2 s).
    static func ping(port: Int) -> Int? {
        guard let socket = try? RawSocket.connect(port: port, timeout: 2) else { return nil }
        socket.send("GET /ping HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        return socket.readStatus()
    }

    @Test func slowlorisDoesNotStarveNormalClients() async throws {
        let configuration = MockServerConfiguration(requestTimeout: .seconds(1))
        let served = Counter()
        try await withMockServer(
            configuration: configuration, handlers: [Self.countingHandler(served, path: "/ping")]
        ) { server in
            let slow = try (0..<200).map { _ in try RawSocket.connect(port: server.port, timeout: 0.5) }
            let request = Array("GET /slow HTTP/1.1\r\nHost: t\r\nX-Slow: aaaaaaaaaaaaaaa\r\n\r\n".utf8)
            var normalStatuses: [Int?] = []
            // 12 rounds of one byte per connection every 200 ms (2.4 s), a normal request each round.
            for round in 0..<12 {
                for socket in slow { socket.send([request[round]]) }
                normalStatuses.append(Self.ping(port: server.port))
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(normalStatuses.allSatisfy { $0 == 200 }, "normal clients got \(normalStatuses)")
            // The request timeout (1 s) must have ended every slow connection: 408 or closed.
            var stillOpen = 0
            for socket in slow {
                let (bytes, end) = socket.readAll(limit: 4096)
                let status = RawSocket.status(of: bytes)
                if end == .timedOut && status == nil { stillOpen += 1 }
                if let status { #expect(status == 408) }
            }
            #expect(stillOpen == 0, "\(stillOpen) slowloris connections were never timed out")
        }
        #expect(served.count == 12)
    }

    @Test func twoThousandIdleConnectionsDoNotBlockService() async throws {
        try Self.raiseFileLimit(to: 8192)
        let served = Counter()
        try await withMockServer(handlers: [Self.countingHandler(served, path: "/ping")]) { server in
            var idle: [RawSocket] = []
            idle.reserveCapacity(2000)
            for _ in 0..<2000 { idle.append(try RawSocket.connect(port: server.port, timeout: 1)) }
            #expect(Self.ping(port: server.port) == 200)
            // Idle connections that then speak are still served.
            for socket in idle.prefix(5) {
                socket.send("GET /ping HTTP/1.1\r\nHost: t\r\n\r\n")
                #expect(socket.readStatus() == 200)
            }
            #expect(Self.ping(port: server.port) == 200)
            for socket in idle { socket.close() }
        }
        #expect(served.count == 7)
    }

    static func raiseFileLimit(to wanted: rlim_t) throws {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = min(wanted, limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        try #require(limit.rlim_cur >= 4500, "RLIMIT_NOFILE hard limit \(limit.rlim_max) is too low")
    }
}

/// The size limits must not depend on how the bytes are split into TCP segments.
extension HostileServerTests {
    @Test(arguments: [false, true])
    func requestLineAtTheLimitIsAcceptedHoweverItIsSplit(splitAfterCR: Bool) async throws {
        let configuration = MockServerConfiguration(maxRequestLineBytes: 256)
        let handler = ClosureHandler { _ in .text("ok", status: 200) }
        try await withMockServer(configuration: configuration, handlers: [handler]) { server in
            // "GET /aaa…a HTTP/1.1" of exactly 256 bytes: at the limit, so accepted.
            let line = "GET /" + String(repeating: "a", count: 256 - 14) + " HTTP/1.1"
            #expect(line.utf8.count == 256)
            let socket = try RawSocket.connect(port: server.port, timeout: 3)
            if splitAfterCR {
                socket.send(line + "\r")
                try await Task.sleep(for: .milliseconds(100))
                socket.send("\nHost: t\r\nConnection: close\r\n\r\n")
            } else {
                socket.send(line + "\r\nHost: t\r\nConnection: close\r\n\r\n")
            }
            let status = socket.readStatus()
            #expect(status == 200)
        }
    }
}
