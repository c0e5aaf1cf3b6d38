import CourierPrimitives
import CourierTesting
import Foundation
import TestSupport
import Testing

@testable import MockServer

/// Handlers run off the event loops: with one loop, a handler that blocks does not stop another
/// connection from being answered, and a connection's requests still reach the handlers in order.
@Suite(.blocksItsThread) struct OffLoopHandlingTests {
    @Test(arguments: PollerBackend.allCases)
    func aBlockingHandlerDoesNotStopTheLoop(_ backend: PollerBackend) async throws {
        let release = DispatchSemaphore(value: 0)
        let handler = ClosureHandler { request in
            switch request.path {
            case "/block":
                _ = release.wait(timeout: .now() + 30)
                return .text("released", status: 200)
            case "/hello":
                return .text("hello", status: 200)
            default:
                return nil
            }
        }
        var configuration = MockServerConfiguration.using(backend)
        configuration.eventLoopCount = 1
        try await withMockServer(configuration: configuration, handlers: [handler]) { server in
            defer { release.signal() }
            let blocked = try RawClient(port: server.port)
            try blocked.send("GET /block HTTP/1.1\r\nHost: t\r\n\r\n")
            let other = try RawClient(port: server.port, timeout: 20)
            try other.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(
                try other.readResponse().text == "hello", "answered while another request's handler blocks")
            release.signal()
            #expect(try blocked.readResponse().text == "released")
        }
    }

    @Test func pipelinedRequestsReachTheHandlersInOrder() async throws {
        let seen = Locked<[String]>([])
        let handler = ClosureHandler { request in
            seen.withLock { $0.append(request.path) }
            return .text(request.path, status: 200)
        }
        try await withMockServer(handlers: [handler]) { server in
            let client = try RawClient(port: server.port)
            let paths = (1...20).map { "/r\($0)" }
            try client.send(paths.map { "GET \($0) HTTP/1.1\r\nHost: t\r\n\r\n" }.joined())
            for path in paths { #expect(try client.readResponse().text == path) }
        }
        #expect(seen.withLock { $0 } == (1...20).map { "/r\($0)" })
    }
}
