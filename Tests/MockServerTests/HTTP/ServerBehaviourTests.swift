import Courier
import CourierPrimitives
import CourierTesting
import Foundation
import TestSupport
import Testing

@testable import MockServer

/// Handlers shared by the socket-level tests.
enum TestHandlers {
    static let all: [any HTTPHandler] = [
        ClosureHandler { request in
            switch request.path {
            case "/hello":
                return .text("hello", status: 200)
            case "/echo":
                var response = ServerResponse(status: 200, body: .data((try? request.bodyData()) ?? Data()))
                response.headers["X-Spilled"] = request.bodyFile == nil ? "no" : "yes"
                response.headers["X-Method"] = request.method
                if let trailer = request.trailers["X-Checksum"] { response.headers["X-Trailer"] = trailer }
                return response
            case "/slow":
                var response = ServerResponse.text("slow", status: 200)
                response.delay = .milliseconds(Int64(request.queryValue("ms") ?? "200") ?? 200)
                return response
            case "/generated":
                let length = Int64(request.queryValue("n") ?? "1000000") ?? 1_000_000
                return ServerResponse(
                    body: .generated(length: length, producer: Pattern.bytes))
            case "/dribble":
                var response = ServerResponse.text("0123456789", status: 200)
                response.dribble = ChunkedDribble(numberOfChunks: 5, totalDuration: .milliseconds(200))
                return response
            case "/fault":
                var response = ServerResponse.text(String(repeating: "z", count: 1000), status: 200)
                response.fault = ServerFault(rawValue: request.queryValue("kind") ?? "")
                return response
            case "/close":
                var response = ServerResponse.text("bye", status: 200)
                response.headers["Connection"] = "close"
                return response
            case "/nocontent":
                return ServerResponse(status: 204)
            default:
                return nil
            }
        }
    ]

    static func generatedBytes(_ range: Range<Int>) -> [UInt8] {
        [UInt8](Pattern.bytes(offset: Int64(range.lowerBound), count: range.count))
    }
}

extension MockServerConfiguration {
    /// The default configuration, waiting with `backend`.
    static func using(_ backend: PollerBackend) -> MockServerConfiguration {
        var configuration = MockServerConfiguration()
        configuration.pollerBackend = backend
        return configuration
    }
}

/// Every socket-level behaviour runs over each poller backend: on Linux that is epoll and the portable
/// `poll(2)` loop that Apple platforms use.
@Suite(.blocksItsThread)
struct ServerBehaviourTests {
    @Test(arguments: PollerBackend.allCases)
    func keepAliveServesManyRequestsOnOneConnection(_ backend: PollerBackend) async throws {
        try await withMockServer(configuration: .using(backend), handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            for _ in 0..<5 {
                try client.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "hello")
                #expect(response.header("Content-Length") == "5")
                #expect(response.header("Connection") == "keep-alive")
            }
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func pipelinedResponsesComeBackInRequestOrder(_ backend: PollerBackend) async throws {
        try await withMockServer(configuration: .using(backend), handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            // The first response is delayed; the others are instant, yet they must follow it.
            try client.send(
                "GET /slow?ms=150 HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabcGET /missing HTTP/1.1\r\nHost: t\r\n\r\n"
            )
            let bodies = try (0..<4).map { _ in try client.readResponse() }
            #expect(bodies.map(\.status) == [200, 200, 200, 404])
            #expect(bodies[0].text == "slow")
            #expect(bodies[1].text == "hello")
            #expect(bodies[2].text == "abc")
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func headGetsHeadersWithoutBody(_ backend: PollerBackend) async throws {
        try await withMockServer(configuration: .using(backend), handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            try client.send("HEAD /hello HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            let head = try client.readResponse(isHead: true)
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "5")
            let get = try client.readResponse()
            #expect(get.text == "hello")
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func chunkedUploadWithTrailers(_ backend: PollerBackend) async throws {
        try await withMockServer(configuration: .using(backend), handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            try client.send(
                "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5\r\npedia\r\n0\r\nX-Checksum: 7\r\n\r\n"
            )
            let response = try client.readResponse()
            #expect(response.text == "Wikipedia")
            #expect(response.header("X-Trailer") == "7")
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func expectContinueGetsInterimResponseBeforeBody(_ backend: PollerBackend) async throws {
        try await withMockServer(configuration: .using(backend), handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            try client.send(
                "PUT /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            let interim = try client.readResponse()
            #expect(interim.status == 100)
            try client.send("data")
            let final = try client.readResponse()
            #expect(final.status == 200)
            #expect(final.text == "data")
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func expectContinueOverLimitGets413WithoutContinue(_ backend: PollerBackend) async throws {
        var configuration = MockServerConfiguration.using(backend)
        configuration.maxBodyBytes = 100
        try await withMockServer(configuration: configuration, handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            try client.send(
                "PUT /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 1000\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 413)
            #expect(response.header("Connection") == "close")
            #expect(response.text.contains("100"))
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func largeUploadSpillsToDiskAndArrivesIntact(_ backend: PollerBackend) async throws {
        var configuration = MockServerConfiguration.using(backend)
        configuration.bodySpillThreshold = 64 * 1024
        try await withMockServer(configuration: configuration, handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            try client.send(
                Array("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: \(payload.count)\r\n\r\n".utf8)
                    + payload)
            let response = try client.readResponse()
            #expect(response.header("X-Spilled") == "yes")
            // One Bool: on a mismatch Swift Testing would diff the two buffers, which takes minutes.
            #expect(
                Bool(response.body == payload), "\(response.body.count) bytes back of \(payload.count) sent")
            let small = "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc"
            try client.send(small)
            #expect(try client.readResponse().header("X-Spilled") == "no")
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func malformedRequestGets400AndClose(_ backend: PollerBackend) async throws {
        try await withMockServer(configuration: .using(backend), handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab")
            let response = try client.readResponse()
            #expect(response.status == 400)
            #expect(response.text.contains("Content-Length"))
            #expect(response.header("Connection") == "close")
            #expect(try client.isClosedByPeer())
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func oversizedHeadersOverTheWireGet431(_ backend: PollerBackend) async throws {
        var configuration = MockServerConfiguration.using(backend)
        configuration.maxHeaderBytes = 1024
        try await withMockServer(configuration: configuration, handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            try client.send(
                "GET /hello HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "b", count: 4000))\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 431)
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func unsupportedTransferCodingGets501(_ backend: PollerBackend) async throws {
        try await withMockServer(configuration: .using(backend), handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            try client.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n\r\n")
            #expect(try client.readResponse().status == 501)
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func idleConnectionsAreClosed(_ backend: PollerBackend) async throws {
        var configuration = MockServerConfiguration.using(backend)
        configuration.idleTimeout = .milliseconds(200)
        try await withMockServer(configuration: configuration, handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port, timeout: 3)
            try client.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try client.readResponse().status == 200)
            #expect(try client.isClosedByPeer())
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func slowClientGets408(_ backend: PollerBackend) async throws {
        var configuration = MockServerConfiguration.using(backend)
        configuration.requestTimeout = .milliseconds(200)
        try await withMockServer(configuration: configuration, handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port, timeout: 3)
            try client.send("GET /hello HTTP/1.1\r\nHost: t\r\n")
            let response = try client.readResponse()
            #expect(response.status == 408)
            #expect(try client.isClosedByPeer())
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func connectionCloseIsHonoured(_ backend: PollerBackend) async throws {
        try await withMockServer(configuration: .using(backend), handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.header("Connection") == "close")
            #expect(try client.isClosedByPeer())
            let other = try RawClient(port: server.port)
            try other.send("GET /close HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try other.readResponse().header("Connection") == "close")
            #expect(try other.isClosedByPeer())
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func http10ClientGetsOneResponseAndClose(_ backend: PollerBackend) async throws {
        try await withMockServer(configuration: .using(backend), handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /hello HTTP/1.0\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(try client.isClosedByPeer())
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func noContentHasNoLength(_ backend: PollerBackend) async throws {
        try await withMockServer(configuration: .using(backend), handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            try client.send(
                "GET /nocontent HTTP/1.1\r\nHost: t\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            let first = try client.readResponse()
            #expect(first.status == 204)
            #expect(first.header("Content-Length") == nil)
            #expect(try client.readResponse().text == "hello")
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func generatedBodyStreamsCompletely(_ backend: PollerBackend) async throws {
        try await withMockServer(configuration: .using(backend), handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /generated?n=3000000 HTTP/1.1\r\nHost: t\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.body.count == 3_000_000)
            // One Bool: on a mismatch Swift Testing would diff two 3 MB buffers, which takes minutes.
            #expect(
                Bool(response.body == TestHandlers.generatedBytes(0..<3_000_000)),
                "\(response.body.count) bytes of 3000000")
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func dribbleSendsSeveralChunks(_ backend: PollerBackend) async throws {
        try await withMockServer(configuration: .using(backend), handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /dribble HTTP/1.1\r\nHost: t\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.header("Transfer-Encoding") == "chunked")
            #expect(response.text == "0123456789")
            #expect(response.chunkCount == 5)
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func aBrokenClientDoesNotDisturbOthers(_ backend: PollerBackend) async throws {
        try await withMockServer(configuration: .using(backend), handlers: TestHandlers.all) { server in
            let stalled = try RawClient(port: server.port)
            // Asks for a big body and never reads it: the server must keep serving others.
            try stalled.send("GET /generated?n=50000000 HTTP/1.1\r\nHost: t\r\n\r\n")
            let garbage = try RawClient(port: server.port)
            try garbage.send([0, 1, 2, 255, 13, 10, 13, 10])
            for _ in 0..<20 {
                let client = try RawClient(port: server.port)
                try client.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
                #expect(try client.readResponse().text == "hello")
            }
            #expect(try garbage.readResponse().status == 400)
        }
    }

    @Test(arguments: PollerBackend.allCases)
    func concurrentClientsAllGetAnswers(_ backend: PollerBackend) async throws {
        try await withMockServer(configuration: .using(backend), handlers: TestHandlers.all) { server in
            let port = server.port
            let successes = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        let client = try RawClient(port: port)
                        var count = 0
                        for _ in 0..<20 {
                            try client.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
                            if try client.readResponse().text == "hello" { count += 1 }
                        }
                        return count
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(successes == 320)
        }
    }

    /// Hundreds of connections on one loop, opened together and closed out of order: the poller's
    /// bookkeeping must keep serving the ones that remain.
    @Test(arguments: PollerBackend.allCases)
    func manyConnectionsOnOneLoopOpenAndCloseOutOfOrder(_ backend: PollerBackend) async throws {
        var configuration = MockServerConfiguration.using(backend)
        configuration.eventLoopCount = 1
        try await withMockServer(configuration: configuration, handlers: TestHandlers.all) { server in
            var clients = try (0..<300).map { _ in try RawClient(port: server.port) }
            for round in 0..<3 {
                for client in clients { try client.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n") }
                for client in clients.reversed() { #expect(try client.readResponse().text == "hello") }
                // Drop every third connection (not the newest), so survivors move around in the poller.
                clients = clients.enumerated().filter { ($0.offset + round) % 3 != 0 }.map(\.element)
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(clients.count == 89)
            let late = try RawClient(port: server.port)
            try late.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nok")
            #expect(try late.readResponse().text == "ok")
        }
    }

    @Test func shutdownIsIdempotentAndClosesConnections() throws {
        let server = MockServer(handlers: TestHandlers.all)
        try server.start()
        let client = try RawClient(port: server.port)
        try client.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        server.shutdown()
        server.shutdown()
        #expect(try client.isClosedByPeer())
        #expect(throws: RawClient.Failure.self) { try RawClient(port: server.port) }
    }

    /// Two shutdowns at once both return only once the loops have exited, so a delayed response in
    /// flight has been written by then. The second used to return at once, while the first was still
    /// waiting for the loops (and `MockServer` then told `waitUntilStopped` it had stopped).
    @Test(.timeLimit(.minutes(1))) func concurrentShutdownsBothWaitForTheLoops() async throws {
        let server = MockServer(configuration: MockServerConfiguration(shutdownGracePeriod: .seconds(20)))
        try server.start()
        try server.addStubs(
            json: Data(
                #"{"request": {"urlPath": "/slow"}, "response": {"body": "late", "fixedDelayMilliseconds": 600}}"#
                    .utf8))
        let client = try RawClient(port: server.port, timeout: 30)
        try client.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        // The request must be read before the shutdown, or it finds an idle connection and closes it.
        while server.journaledRequests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        // `stop()` runs `shutdown()` on a thread of its own: two calls, two threads shutting down at once.
        let fd = client.fd
        async let first = Self.stop(server, thenPeekAt: fd)
        async let second = Self.stop(server, thenPeekAt: fd)
        let answered = await [first, second]
        #expect(answered == [true, true], "a shutdown returned before the response was written")
        #expect(try client.readResponse().text == "late")
    }

    /// Stops `server`; returns whether the response had reached `fd` by then.
    private static func stop(_ server: MockServer, thenPeekAt fd: Int32) async -> Bool {
        await server.stop()
        return RawClient.hasInputWaiting(fd)
    }

    @Test func withMockServerShutsDownWhenBodyThrows() async throws {
        struct Boom: Error {}
        let scoped = CourierPrimitives.Locked<MockServer?>(nil)
        await #expect(throws: Boom.self) {
            try await withMockServer(handlers: TestHandlers.all) { server in
                scoped.withLock { $0 = server }
                throw Boom()
            }
        }
        // Asked of the server itself: another test's server may bind the same port once it is free.
        let server = try #require(scoped.withLock { $0 })
        let stopped = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await server.waitUntilStopped()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(stopped, "the server was still running after the scope threw")
    }

    @Test func portInUseIsAClearError() throws {
        let first = MockServer()
        try first.start()
        defer { first.shutdown() }
        let second = MockServer(configuration: MockServerConfiguration(port: first.port))
        #expect(throws: MockServerError.self) { try second.start() }
        #expect(first.baseURL.absoluteString == "http://127.0.0.1:\(first.port)")
    }
}
