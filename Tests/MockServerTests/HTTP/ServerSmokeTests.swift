import Foundation
import MockServer
import TestSupport
import Testing

@Suite(.blocksItsThread) struct ServerSmokeTests {
    static let hello = ClosureHandler { request in
        guard request.path == "/hello" else { return nil }
        return .text("hello \(request.queryValue("name") ?? "world")", status: 200)
    }

    @Test func answersAndKeepsAlive() async throws {
        try await withMockServer(handlers: [Self.hello]) { server in
            #expect(server.port > 0)
            let client = try RawClient(port: server.port)
            try client.send("GET /hello?name=a%20b HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = try client.readResponse()
            #expect(first.status == 200)
            #expect(first.text == "hello a b")
            #expect(first.header("Connection") == "keep-alive")
            #expect(first.header("Date")?.hasSuffix("GMT") == true)
            try client.send("GET /missing HTTP/1.1\r\nHost: x\r\n\r\n")
            let second = try client.readResponse()
            #expect(second.status == 404)
        }
    }
}
