import Courier
import CourierCurl
import CourierPrimitives
import CourierTesting
import Foundation
import TestSupport
import Testing

@testable import MockServer

/// A handler that needs to wait answers later instead of blocking its loop: with one loop, another
/// connection is served while the first request waits.
@Suite(.blocksItsThread) struct DeferredResponseTests {
    @Test func aDeferredAnswerLeavesTheLoopFreeForOthers() async throws {
        let pending = Locked<DeferredResponse?>(nil)
        let handler = ClosureHandler { request in
            switch request.path {
            case "/wait":
                let deferred = DeferredResponse()
                pending.withLock { $0 = deferred }
                return .deferred(deferred)
            case "/hello":
                return .text("hello", status: 200)
            default:
                return nil
            }
        }
        var configuration = MockServerConfiguration()
        configuration.eventLoopCount = 1
        try await withMockServer(configuration: configuration, handlers: [handler]) { server in
            let waiting = try RawClient(port: server.port)
            try waiting.send("GET /wait HTTP/1.1\r\nHost: t\r\n\r\n")
            var deferred: DeferredResponse?
            for _ in 0..<1000 where deferred == nil {
                deferred = pending.withLock { $0 }
                if deferred == nil { try await Task.sleep(for: .milliseconds(10)) }
            }
            let other = try RawClient(port: server.port)
            try other.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try other.readResponse().text == "hello", "served while /wait is pending")
            let completed = try #require(deferred).complete(.text("late", status: 202))
            #expect(completed)
            let late = try waiting.readResponse()
            #expect(late.status == 202 && late.text == "late")
        }
    }

    /// `.later` answers from a task. The client awaits rather than blocking a thread: the task runs on
    /// the same cooperative pool as the tests.
    @Test func laterAnswersFromATask() async throws {
        let handler = ClosureHandler { request in
            request.path == "/later" ? .later { .text("from a task", status: 200) } : nil
        }
        try await withMockServer(handlers: [handler]) { server in
            let transport = CurlTransport()
            let response = try await transport.send(
                TransportRequest(url: server.baseURL.appendingPathComponent("later")))
            await transport.shutdown()
            #expect(response.status == 200)
            #expect(String(decoding: response.body.data, as: UTF8.self) == "from a task")
        }
    }
}
