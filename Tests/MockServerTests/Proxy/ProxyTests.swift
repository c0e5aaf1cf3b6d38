import CourierPrimitives
import CourierTesting
import Foundation
import TestSupport
import Testing

@testable import MockServer

/// `proxyBaseUrl` against a second in-process mock server as the upstream.
@Suite(.blocksItsThread)
struct ProxyTests {
    /// An upstream that echoes what it received as JSON, with status 207 and its own header.
    static let echo = ClosureHandler { request in
        var headers: [String: JSONValue] = [:]
        for field in request.headers { headers[field.name.lowercased()] = .string(field.value) }
        let body: JSONValue = .object([
            "method": .string(request.method), "target": .string(request.target), "headers": .object(headers),
            "body": .string(String(decoding: request.body, as: UTF8.self)),
        ])
        return ServerResponse(
            status: 207, headers: ["Content-Type": "application/json", "X-Upstream": "yes"],
            body: .data(body.serialized()))
    }

    private func proxyStub(_ upstream: MockServer, extra: String = "") -> Data {
        Data(
            #"{"request": {"urlPathPattern": "/api/.*"}, "response": {"proxyBaseUrl": "\#(upstream.baseURL.absoluteString)"\#(extra)}}"#
                .utf8)
    }

    @Test func forwardsTheRequestAndReturnsTheUpstreamResponse() async throws {
        try await withMockServer(handlers: [Self.echo]) { upstream in
            try await withMockServer { server in
                try server.addStubs(json: proxyStub(upstream))
                let response = try perform(
                    server, "PATCH", "/api/things/1?x=1&y=two", headers: [("X-Client", "c1")], body: "payload"
                )
                #expect(response.status == 207, "\(response.text)")
                #expect(response.header("X-Upstream") == "yes")
                let echoed = json(response)
                #expect(echoed["method"] as? String == "PATCH")
                #expect(echoed["target"] as? String == "/api/things/1?x=1&y=two")
                #expect(echoed["body"] as? String == "payload")
                let headers = echoed["headers"] as? [String: String] ?? [:]
                #expect(headers["x-client"] == "c1")
                #expect(headers["host"] == "\(upstream.baseURL.host!):\(upstream.port)")
                // The journal has the proxied request with the upstream's status.
                let requests = json(try perform(server, "/__admin/requests"))["requests"] as? [[String: Any]]
                #expect((requests?.first?["response"] as? [String: Any])?["status"] as? Int == 207)
            }
        }
    }

    /// An upstream body over the proxy's budget is refused with a 502 that says so, whether the upstream
    /// announces its length or streams it chunked; one within it passes whole.
    @Test func anUpstreamBodyOverTheBudgetIsA502() async throws {
        let upstreamHandler = ClosureHandler { request in
            switch request.path {
            case "/api/big": return ServerResponse(body: .data(Data(count: 300_000)))
            case "/api/chunked":
                var response = ServerResponse(body: .data(Data(count: 300_000)))
                response.dribble = ChunkedDribble(numberOfChunks: 6, totalDuration: .milliseconds(60))
                return response
            default: return ServerResponse(body: .data(Data(count: 1_000)))
            }
        }
        try await withMockServer(handlers: [upstreamHandler]) { upstream in
            var configuration = MockServerConfiguration()
            configuration.proxyMaxResponseBytes = 100_000
            try await withMockServer(configuration: configuration) { server in
                try server.addStubs(json: proxyStub(upstream))
                let small = try perform(server, "/api/small")
                #expect(small.status == 200 && small.body.count == 1_000, "\(small.text)")
                for path in ["/api/big", "/api/chunked"] {
                    let refused = try perform(server, path)
                    #expect(refused.status == 502, "\(path): \(refused.status)")
                    #expect(refused.text.contains("over 100000 bytes"), "\(path): \(refused.text)")
                }
            }
        }
    }

    @Test func addsAndRemovesHeadersAndStripsAPrefix() async throws {
        try await withMockServer(handlers: [Self.echo]) { upstream in
            try await withMockServer { server in
                try server.addStubs(
                    json: proxyStub(
                        upstream,
                        extra:
                            #", "additionalProxyRequestHeaders": {"Authorization": "Bearer upstream"}, "removeProxyRequestHeaders": ["X-Secret"], "proxyUrlPrefixToRemove": "/api""#
                    ))
                let response = try perform(
                    server, "/api/v1/me",
                    headers: [("X-Secret", "s"), ("Authorization", "Bearer client"), ("X-Kept", "k")])
                let echoed = json(response)
                let headers = echoed["headers"] as? [String: String] ?? [:]
                #expect(headers["authorization"] == "Bearer upstream")
                #expect(headers["x-secret"] == nil)
                #expect(headers["x-kept"] == "k")
                #expect(echoed["target"] as? String == "/v1/me")
            }
        }
    }

    @Test func aSlowUpstreamGets504WithinTheLimit() async throws {
        try await withMockServer { upstream in
            try upstream.addStubs(
                json: Data(
                    #"{"request": {"urlPath": "/api/slow"}, "response": {"fixedDelayMilliseconds": 10000}}"#
                        .utf8))
            var configuration = MockServerConfiguration()
            configuration.proxyTimeout = .seconds(2)
            configuration.shutdownGracePeriod = .milliseconds(100)
            try await withMockServer(configuration: configuration) { server in
                try server.addStubs(json: proxyStub(upstream))
                // The 504 shows the limit fired: the upstream would have answered 200 after 10 s. No wall-clock
                // bound on the call: the suite runs in parallel on two cores, so it would measure the machine.
                let timedOut = try perform(server, "/api/slow")
                #expect(timedOut.status == 504)
                #expect(timedOut.text.contains("timed out after"))
            }
        }
    }

    @Test func aRequestWaitingOnItsUpstreamDoesNotBlockTheLoop() async throws {
        // The upstream notes the request as it arrives and answers 10 minutes later; the proxy waits up to 15.
        // So the proxied request is still pending when the test looks, however long the loaded machine keeps
        // the test's task from running (with a 30 s hold, CI once resumed the task after the answer came).
        // Shutting the servers down at the end cuts the held exchange.
        let arrived = Locked(false)
        let upstreamHandler = ClosureHandler { request in
            guard request.path == "/api/slow" else { return nil }
            arrived.withLock { $0 = true }
            var response = ServerResponse.text("late", status: 200)
            response.delay = .seconds(600)
            return response
        }
        var upstreamConfiguration = MockServerConfiguration()
        upstreamConfiguration.shutdownGracePeriod = .milliseconds(100)
        try await withMockServer(configuration: upstreamConfiguration, handlers: [upstreamHandler]) {
            upstream in
            var configuration = MockServerConfiguration()
            configuration.eventLoopCount = 1
            configuration.proxyTimeout = .seconds(900)
            configuration.shutdownGracePeriod = .milliseconds(100)
            try await withMockServer(configuration: configuration) { server in
                try server.addStubs(json: proxyStub(upstream))
                try server.addStubs(
                    json: Data(#"{"request": {"urlPath": "/fast"}, "response": {"body": "f"}}"#.utf8))
                // The slow request runs on a thread of its own, not on the test's concurrency pool.
                let slowEnded = Locked(false)
                let port = server.port
                let thread = Thread {
                    let client = try? RawClient(port: port, timeout: 900)
                    try? client?.send("GET /api/slow HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
                    _ = try? client?.readResponse(isHead: false)
                    slowEnded.withLock { $0 = true }
                }
                thread.start()
                #expect(await eventually { arrived.withLock { $0 } }, "the upstream never got the request")
                // With the proxied request pending, the server's only loop thread must still answer. A loop
                // blocked on the upstream would not answer within RawClient's 5 s (the upstream takes 10 minutes).
                #expect(try perform(server, "/fast").text == "f")
                #expect(
                    !slowEnded.withLock { $0 }, "the proxied request ended before the fast one was answered")
            }
        }
    }

    /// A task cancelled before the proxy client made its upstream task: the cancellation handler ran
    /// first, found nothing to cancel, and the upstream request ran until its own timeout.
    @Test func aCancellationBeforeTheUpstreamTaskExistsIsNotLost() async throws {
        let upstreamHandler = ClosureHandler { _ in
            var response = ServerResponse.text("late", status: 200)
            response.delay = .seconds(30)
            return response
        }
        var upstreamConfiguration = MockServerConfiguration()
        upstreamConfiguration.shutdownGracePeriod = .milliseconds(100)
        try await withMockServer(configuration: upstreamConfiguration, handlers: [upstreamHandler]) {
            upstream in
            let client = URLSessionProxyClient()
            let request = ProxyRequest(
                method: "GET", url: upstream.baseURL.appendingPathComponent("slow"), headers: [],
                body: Data(),
                timeout: .seconds(60))
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }  // cancelled before `send` runs
                return try await client.send(request)
            }
            // Without the fix the upstream's answer arrives after 30 s and `send` returns it.
            await #expect(throws: (any Error).self) { try await task.value }
        }
    }

    @Test func anUnreachableUpstreamGets502() async throws {
        // A port held bound but not listening: it refuses connections, and no other test's server can take it.
        try await LoopbackPort.withRefusingPort { closedPort in
            try await withMockServer { server in
                try server.addStubs(
                    json: Data(
                        #"{"request": {"urlPathPattern": "/api/.*"}, "response": {"proxyBaseUrl": "http://127.0.0.1:\#(closedPort)"}}"#
                            .utf8))
                let response = try perform(server, "/api/x")
                #expect(response.status == 502)
                #expect(response.text.contains("Proxying to http://127.0.0.1:\(closedPort)/api/x failed"))
            }
        }
    }

    @Test func malformedProxyKeysAreRefused() async throws {
        try await withMockServer { server in
            for (response, path) in [
                (#"{"proxyBaseUrl": "ftp://x"}"#, "mapping.response.proxyBaseUrl"),
                (
                    #"{"additionalProxyRequestHeaders": {"A": "b"}}"#,
                    "mapping.response.additionalProxyRequestHeaders"
                ),
                (
                    #"{"proxyBaseUrl": "http://x", "removeProxyRequestHeaders": "A"}"#,
                    "mapping.response.removeProxyRequestHeaders"
                ),
            ] {
                let refused = try perform(
                    server, "POST", "/__admin/mappings",
                    body: #"{"request": {"url": "/p"}, "response": \#(response)}"#)
                #expect(refused.status == 422)
                #expect(refused.text.contains(path), "\(refused.text)")
            }
        }
    }
}
