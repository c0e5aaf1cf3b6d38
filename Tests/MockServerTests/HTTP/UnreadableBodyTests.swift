import CourierPrimitives
import CourierTesting
import Foundation
import TestSupport
import Testing

@testable import MockServer

/// A request body spilled to disk that cannot be read back is a 500 saying why, and is logged: never
/// matched as an empty body.
@Suite(.blocksItsThread) struct UnreadableBodyTests {
    /// Removes the spilled body before stubs are tried, as a cleaner of the temporary folder might.
    struct SpillRemover: HTTPHandler {
        func gate(_ request: ServerRequest) -> ServerResponse? {
            if let file = request.bodyFile { try? FileManager.default.removeItem(at: file) }
            return nil
        }

        func handle(_ request: ServerRequest) -> ServerResponse? { nil }
    }

    @Test func anUnreadableSpilledBodyIsA500ThatSaysWhy() async throws {
        let logged = Locked<[String]>([])
        var configuration = MockServerConfiguration()
        configuration.bodySpillThreshold = 1024
        configuration.log = { line in logged.withLock { $0.append(line) } }
        try await withMockServer(configuration: configuration, handlers: [SpillRemover()]) { server in
            // A stub that an empty body would match.
            _ = try server.addStubs(
                json: Data(
                    #"{"request": {"method": "POST", "url": "/upload", "bodyPatterns": [{"equalTo": ""}]}, "response": {"status": 200}}"#
                        .utf8))
            let client = try RawClient(port: server.port)
            let payload = [UInt8](repeating: UInt8(ascii: "a"), count: 4096)
            try client.send(
                Array("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: \(payload.count)\r\n\r\n".utf8)
                    + payload)
            let response = try client.readResponse()
            #expect(response.status == 500, "\(response.text)")
            #expect(
                response.text.contains("the request body spilled to disk could not be read"),
                "\(response.text)")
        }
        let lines = logged.withLock { $0 }
        #expect(
            lines.contains { $0.contains("POST /upload") && $0.contains("could not be read") }, "\(lines)")
    }
}
