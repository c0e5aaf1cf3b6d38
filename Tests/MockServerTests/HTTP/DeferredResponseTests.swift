import CourierPrimitives
import CourierTesting
import Foundation
import TestSupport
import Testing

@testable import MockServer

/// A handler that needs to wait answers later instead of blocking its loop: with one loop, another
/// connection is served while the first request waits.
@Suite struct DeferredResponseTests {
    @Test func aDeferredAnswerLeavesTheLoopFreeForOthers() async throws {
        let pending = Locked<DeferredResponse?>(nil)
        let handler = ClosureHandler { request in
            switch request.path {
            case "/wait":
                let deferred = DeferredResponse()
                pending.withLock { $0 = deferred }
                return .deferred(deferred)
            case "/later":
                return .later { .text("from a task", status: 200) }
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
            try other.send("GET /later HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try other.readResponse().text == "from a task")
            let completed = try #require(deferred).complete(.text("late", status: 202))
            #expect(completed)
            let late = try waiting.readResponse()
            #expect(late.status == 202 && late.text == "late")
        }
    }
}
