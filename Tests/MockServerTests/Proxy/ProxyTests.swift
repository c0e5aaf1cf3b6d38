import CourierPrimitives
import CourierTesting
import Foundation
import TestSupport
import Testing

@testable import MockServer

/// `proxyBaseUrl` against a second in-process mock server as the upstream.
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

    @Test func aSlowUpstreamGets504WithinTheLimitAndDoesNotBlockTheLoop() async throws {
        try await withMockServer { upstream in
            try upstream.addStubs(
                json: Data(
                    #"{"request": {"urlPath": "/api/slow"}, "response": {"fixedDelayMilliseconds": 10000}}"#
                        .utf8))
            var configuration = MockServerConfiguration()
            configuration.eventLoopCount = 1
            configuration.proxyTimeout = .seconds(2)
            configuration.shutdownGracePeriod = .milliseconds(100)
            try await withMockServer(configuration: configuration) { server in
                try server.addStubs(json: proxyStub(upstream))
                try server.addStubs(
                    json: Data(#"{"request": {"urlPath": "/fast"}, "response": {"body": "f"}}"#.utf8))
                let clock = ContinuousClock()
                // The slow request runs on a thread of its own, not on the test's concurrency pool.
                let slow = Locked<Result<RawResponse, any Error>?>(nil)
                let thread = Thread { slow.withLock { $0 = Result { try perform(server, "/api/slow") } } }
                thread.start()
                // Once the upstream holds the proxied request, the single loop thread must still answer.
                let forwarded = try await eventually {
                    (json(try perform(upstream, "/__admin/requests"))["requests"] as? [Any])?.count == 1
                }
                #expect(forwarded)
                let fastStart = clock.now
                #expect(try perform(server, "/fast").text == "f")
                #expect(clock.now - fastStart < .seconds(1))
                var timedOut: RawResponse?
                let deadline = clock.now + .seconds(30)
                while timedOut == nil, clock.now < deadline {
                    timedOut = try slow.withLock { try $0?.get() }
                    if timedOut == nil { try await Task.sleep(for: .milliseconds(10)) }
                }
                // The 504 shows the limit fired: the upstream would have answered 200 after 10 s. No wall-clock
                // bound on the whole call: the suite runs in parallel on two cores, so it measures the machine.
                #expect(timedOut?.status == 504)
                #expect(timedOut?.text.contains("timed out after") == true)
            }
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
