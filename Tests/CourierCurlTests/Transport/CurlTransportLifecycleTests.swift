import Courier
import Foundation
import MockServer
import TestSupport
import Testing

@testable import CourierCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Behaviour that belongs to CurlTransport itself: connection reuse, concurrency on one
/// multi handle, shutdown and deinit. (HTTP/2 over TLS is checked against nginx in
/// TransportConformanceTests/TLSTests.)
@Suite struct CurlTransportLifecycleTests {
    private static let routes = ClosureHandler { request in
        if request.path.hasPrefix("/slow") {
            return ServerResponse(status: 200, body: .data(Data("slow".utf8)), delay: .seconds(120))
        }
        return ServerResponse.text("ok \(request.path)", status: 200)
    }

    private func get(_ server: MockServer, _ path: String) throws -> TransportRequest {
        TransportRequest(
            urlRequest: URLRequest(url: try #require(URL(string: server.baseURL.absoluteString + path))))
    }

    @Test func sequentialRequestsReuseOneKeptAliveConnection() async throws {
        try await withMockServer(handlers: [Self.routes]) { server in
            try await CurlTransport.with { transport in
                for index in 0..<5 {
                    let response = try await transport.send(try get(server, "/r\(index)"))
                    #expect(response.body.data == Data("ok /r\(index)".utf8))
                }
                #expect(transport.statistics.transfersCompleted == 5)
                #expect(transport.statistics.connectionsOpened == 1)
            }
        }
    }

    @Test func concurrentRequestsShareTheMultiHandleWithinTheHostLimit() async throws {
        try await withMockServer(handlers: [Self.routes]) { server in
            try await CurlTransport.with(configuration: .init(maxConnectionsPerHost: 4)) { transport in
                let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
                    for index in 0..<24 {
                        let request = try get(server, "/c\(index)")
                        group.addTask { try await transport.send(request).body.data }
                    }
                    return try await group.reduce(into: Set<Data>()) { $0.insert($1) }
                }
                #expect(bodies == Set((0..<24).map { Data("ok /c\($0)".utf8) }))
                #expect(transport.statistics.transfersCompleted == 24)
                #expect(transport.statistics.connectionsOpened <= 4)
            }
        }
    }

    /// Callers that start their own transfers while the loop thread waits, and callers that
    /// queue theirs while it works, in every mix: 32 tasks send 25 requests each, pausing now and
    /// then so that the loop alternates between waiting and working, over 2 connections (so
    /// that most transfers also wait in the origin's queue). Every request gets its own answer,
    /// once.
    @Test func callersAndTheLoopTakingTurnsLoseNoRequest() async throws {
        try await withMockServer(handlers: [Self.routes]) { server in
            try await CurlTransport.with(configuration: .init(maxConnectionsPerHost: 2)) { transport in
                let tasks = 32
                let requestsPerTask = 25
                let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                    for task in 0..<tasks {
                        group.addTask {
                            var matched = 0
                            for index in 0..<requestsPerTask {
                                if (task + index) % 4 == 0 { try await Task.sleep(for: .milliseconds(1)) }
                                let path = "/t\(task)-\(index)"
                                let response = try await transport.send(try get(server, path))
                                if response.body.data == Data("ok \(path)".utf8) { matched += 1 }
                            }
                            return matched
                        }
                    }
                    return try await group.reduce(0, +)
                }
                #expect(answered == tasks * requestsPerTask)
                #expect(transport.statistics.transfersCompleted == tasks * requestsPerTask)
                #expect(transport.statistics.connectionsOpened <= 2)
            }
        }
    }

    @Test func shutdownCancelsTransfersInFlightAndRefusesNewOnes() async throws {
        try await withMockServer(handlers: [Self.routes]) { server in
            let transport = CurlTransport()
            let request = try get(server, "/slow")
            let inFlight = Task { try await transport.send(request) }
            // The server holds the answer for 2 minutes; the shutdown ends it long before that.
            #expect(await eventually { transport.loop.activeTransferCount == 1 })
            await transport.shutdown()
            #expect(transport.loop.isStopped)
            let result = await inFlight.result
            guard case .failure(let error as CourierError) = result else {
                Issue.record("expected .cancelled, got \(result)")
                return
            }
            #expect(error.code == .cancelled)
            let after = try await #require(throws: CourierError.self) {
                try await transport.send(try get(server, "/x"))
            }
            #expect(after.code == .cancelled)
            await transport.shutdown()  // idempotent
        }
    }

    /// Over plain HTTP nothing can multiplex, so a second request to an origin opens its own
    /// connection at once. (With `CURLOPT_PIPEWAIT` it waited for the first response's head,
    /// here two minutes away.)
    @Test(.timeLimit(.minutes(1)))
    func aSlowFirstAnswerDoesNotHoldBackTheNextRequestToTheSameOrigin() async throws {
        try await withMockServer(handlers: [Self.routes]) { server in
            let transport = CurlTransport()
            let slow = Task { try await transport.send(try get(server, "/slow")) }
            #expect(await eventually { transport.loop.activeTransferCount == 1 })
            let fast = try await transport.send(try get(server, "/fast"))
            #expect(fast.status == 200)
            #expect(fast.body.data == Data("ok /fast".utf8))
            await transport.shutdown()
            _ = await slow.result
        }
    }

    @Test func droppingTheTransportStopsItsLoop() async throws {
        var transport: CurlTransport? = CurlTransport()
        let loop = try #require(transport?.loop)
        #expect(!loop.isStopped)
        transport = nil
        #expect(await eventually { loop.isStopped })
    }

    @Test func theUserAgentAndTimingsComeFromLibcurl() async throws {
        let agent = ClosureHandler { request in
            ServerResponse.text(request.headers["User-Agent"] ?? "none", status: 200)
        }
        try await withMockServer(handlers: [agent]) { server in
            try await CurlTransport.with(configuration: .init(userAgent: "CourierTest/1")) { transport in
                let response = try await transport.send(try get(server, "/ua"))
                #expect(response.body.data == Data("CourierTest/1".utf8))
                #expect(response.timings.total != nil)
                #expect(response.timings.firstByte != nil)
                #expect(response.timings.tlsHandshake == nil, "plain HTTP has no TLS phase")
                #expect(CurlInfo.version.hasPrefix("libcurl/"))
            }
        }
    }
}
