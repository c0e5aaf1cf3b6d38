import Courier
import CourierInterceptors
import Foundation
import MockServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A non-idempotent POST whose kept-alive connection dies after the server processed it, before any reply.
///
/// What must hold: that call fails with `.connectionLost` (the client cannot know whether it was
/// processed), the server processed it once (no silent replay), the calls around it succeed, and nothing
/// waits for the server's request timeout.
@Suite(.timeLimit(.minutes(1)))
struct ConnectionReuseTests {
    @Test(arguments: [ServerFault.connectionResetByPeer, .emptyResponse], TransportUnderTest.allCases)
    func postOnAReusedConnectionThatDies(_ fault: ServerFault, over transport: TransportUnderTest)
        async throws
    {
        let processed = Collector<String>()
        let handler = ClosureHandler { request in
            processed.append(request.path)
            if request.path == "/b" { return ServerResponse(body: .data(Data("lost".utf8)), fault: fault) }
            return .text("created", status: 201)
        }
        // A short request timeout bounds the stall a half-sent request causes (30 s by default).
        let configuration = MockServerConfiguration(requestTimeout: .seconds(2))
        let outcomes = try await withMockServer(configuration: configuration, handlers: [handler]) { server in
            try await transport.with { client in
                let manager = NetworkManager(
                    transport: client, baseURL: server.baseURL,
                    transferOptions: TransferOptions(totalTimeout: .seconds(10)),
                    interceptors: [RetryPolicy(maxAttempts: 3, baseDelay: .seconds(0.01))])
                var outcomes: [String] = []
                for path in ["a", "b", "c"] {
                    var request = URLRequest(url: server.baseURL.appendingPathComponent(path))
                    request.httpMethod = "POST"
                    request.httpBody = Data(repeating: 65, count: 200)
                    let sent = request
                    let outcome = try await withDeadline(seconds: 20) { () -> String in
                        do {
                            return "\(try await manager.sendRaw(sent).status)"
                        } catch let error as CourierError {
                            return error.code.name
                        }
                    }
                    outcomes.append(outcome)
                }
                return outcomes
            }
        }
        let bRuns = processed.all.filter { $0 == "/b" }.count
        let check = {
            #expect(outcomes == ["201", "connectionLost", "201"], "\(fault) over \(transport)")
            #expect(bRuns == 1, "the POST was processed \(bRuns) times")
        }
        // Was bug 4 (libcurl re-sent the POST on a fresh connection) and bug 3 (URLSession re-sent the head
        // without its body); fixed by sending requests that must not be repeated on fresh connections.
        check()
        #expect(!outcomes.contains("timedOut"))
    }
}
