import Courier
import Foundation
import MockServer
import TestSupport
import Testing

@testable import CourierCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Tasks that prefer `CurlTransport.executor` run on the transport's loop thread.
@Suite struct CurlTransportExecutorTests {
    private static let routes = ClosureHandler { request in
        ServerResponse.text("ok \(request.path)", status: 200)
    }

    private func request(_ server: MockServer, _ path: String) throws -> TransportRequest {
        TransportRequest(url: try #require(URL(string: server.baseURL.absoluteString + path)))
    }

    @Test func aTaskPreferringTheExecutorRunsOnTheLoopThreadBetweenItsRequests() async throws {
        try await withMockServer(handlers: [Self.routes]) { server in
            try await CurlTransport.with { transport in
                try await withTaskExecutorPreference(transport.executor) {
                    for index in 0..<20 {
                        let response = try await transport.send(try request(server, "/s\(index)"))
                        #expect(response.body.data == Data("ok /s\(index)".utf8))
                        #expect(transport.loop.isLoopThread)
                    }
                }
                #expect(transport.statistics.connectionsOpened == 1)
            }
        }
    }

    @Test func manyTasksPreferringTheExecutorShareTheLoopThread() async throws {
        try await withMockServer(handlers: [Self.routes]) { server in
            try await CurlTransport.with(configuration: .init(maxConnectionsPerHost: 4)) { transport in
                let results = try await withThrowingTaskGroup(of: (Int, Data, Bool).self) { group in
                    for index in 0..<64 {
                        let request = try request(server, "/c\(index)")
                        group.addTask(executorPreference: transport.executor) {
                            let body = try await transport.send(request).body.data
                            return (index, body, transport.loop.isLoopThread)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(results.count == 64)
                for (index, body, onLoop) in results {
                    #expect(body == Data("ok /c\(index)".utf8))
                    #expect(onLoop)
                }
            }
        }
    }

    @Test func aTaskPreferringAShutDownTransportStillRuns() async throws {
        try await withMockServer(handlers: [Self.routes]) { server in
            let transport = CurlTransport()
            let outcome = try await withTaskExecutorPreference(transport.executor) {
                _ = try await transport.send(try request(server, "/before"))
                await transport.shutdown()
                // The loop is gone: the global executor runs what follows.
                try await Task.sleep(for: .milliseconds(1))
                return await #expect(throws: CourierError.self) {
                    try await transport.send(try request(server, "/after"))
                }
            }
            #expect(outcome?.code == .cancelled)
            #expect(transport.loop.isStopped)
        }
    }

    @Test func cancellingATaskOnTheLoopThreadEndsItsTransfer() async throws {
        let slow = ClosureHandler { _ in
            ServerResponse(status: 200, body: .data(Data("late".utf8)), delay: .seconds(300))
        }
        try await withMockServer(handlers: [slow]) { server in
            try await CurlTransport.with { transport in
                var request = try request(server, "/slow")
                // Longer than the server's delay: the transfer stays until cancelled, however long
                // a loaded machine keeps this test's task from looking.
                request.options.idleTimeout = .seconds(600)
                let task = Task(executorPreference: transport.executor) {
                    try await transport.send(request)
                }
                #expect(await eventually { transport.loop.activeTransferCount == 1 })
                task.cancel()
                let error = await #expect(throws: CourierError.self) { try await task.value }
                #expect(error?.code == .cancelled)
            }
        }
    }

    /// An idle limit beyond any real wait (`.seconds(Int64.max)`) means "never idle": converting it
    /// to milliseconds trapped on the loop thread at the first progress callback.
    @Test func anEnormousIdleTimeoutIsOnlyALongWait() async throws {
        let dribble = ClosureHandler { _ in
            ServerResponse(status: 200, body: .data(Data("done".utf8)), delay: .milliseconds(300))
        }
        try await withMockServer(handlers: [dribble]) { server in
            try await CurlTransport.with { transport in
                var request = try request(server, "/slow")
                request.options.idleTimeout = .seconds(Int64.max)
                let response = try await transport.send(request)
                #expect(response.status == 200)
                #expect(response.body.data == Data("done".utf8))
            }
        }
    }
}
