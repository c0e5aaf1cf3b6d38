import Foundation
import MockServer
import TestSupport
import Testing

@Suite(.blocksItsThread)
struct FaultTests {
    private func rawExchange(_ kind: ServerFault) async throws -> Result<[UInt8], RawClient.Failure> {
        try await withMockServer(handlers: TestHandlers.all) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /fault?kind=\(kind.rawValue) HTTP/1.1\r\nHost: t\r\n\r\n")
            do {
                return .success(try client.readToEnd())
            } catch let failure as RawClient.Failure {
                return .failure(failure)
            }
        }
    }

    @Test func connectionResetByPeerResets() async throws {
        let outcome = try await rawExchange(.connectionResetByPeer)
        guard case .failure(let failure) = outcome else {
            Issue.record("expected a reset, got \(outcome)")
            return
        }
        #expect(failure.description.contains("reset"))
    }

    @Test func emptyResponseClosesWithoutBytes() async throws {
        let outcome = try await rawExchange(.emptyResponse)
        #expect(try outcome.get() == [])
    }

    @Test func malformedResponseChunkSendsHeadThenGarbage() async throws {
        let bytes = try await rawExchange(.malformedResponseChunk).get()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200"))
        #expect(text.contains("Transfer-Encoding: chunked\r\n\r\n"))
        let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined()
        #expect(Int(body.prefix { $0 != "\r" }, radix: 16) == nil)
    }

    @Test func randomDataThenCloseIsNotHTTP() async throws {
        let bytes = try await rawExchange(.randomDataThenClose).get()
        #expect(!bytes.isEmpty)
        #expect(!String(decoding: bytes.prefix(5), as: UTF8.self).hasPrefix("HTTP/"))
    }

    @Test func truncatedBodyPromisesMoreThanItSends() async throws {
        let bytes = try await rawExchange(.truncatedBody).get()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("Content-Length: 1000\r\n"))
        let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        #expect(body.count == 500)
    }
}

@Suite(.blocksItsThread)
struct RangeTests {
    static let fileURL: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-range-\(UUID().uuidString).bin")
        _ = FileManager.default.createFile(
            atPath: url.path, contents: Data((0..<1000).map { UInt8($0 % 256) }))
        return url
    }()

    static let handlers: [any HTTPHandler] =
        [
            ClosureHandler { request in
                switch request.path {
                case "/file": return ServerResponse(body: .file(RangeTests.fileURL))
                case "/missing-file":
                    return ServerResponse(body: .file(URL(fileURLWithPath: "/nonexistent/x.bin")))
                default: return nil
                }
            }
        ] + TestHandlers.all

    struct Case: Sendable, CustomTestStringConvertible {
        var range: String?
        var status: Int
        var contentRange: String?
        var bytes: Range<Int>?
        var testDescription: String { range ?? "no Range" }
    }

    static let cases: [Case] = [
        Case(range: nil, status: 200, contentRange: nil, bytes: 0..<1000),
        Case(range: "bytes=0-99", status: 206, contentRange: "bytes 0-99/1000", bytes: 0..<100),
        Case(range: "bytes=900-", status: 206, contentRange: "bytes 900-999/1000", bytes: 900..<1000),
        Case(range: "bytes=-10", status: 206, contentRange: "bytes 990-999/1000", bytes: 990..<1000),
        Case(range: "bytes=990-5000", status: 206, contentRange: "bytes 990-999/1000", bytes: 990..<1000),
        Case(range: "bytes=1000-", status: 416, contentRange: "bytes */1000", bytes: nil),
        Case(range: "bytes=0-1,5-6", status: 200, contentRange: nil, bytes: 0..<1000),
        Case(range: "items=0-5", status: 200, contentRange: nil, bytes: 0..<1000),
    ]

    @Test(arguments: cases)
    func fileRanges(_ example: Case) async throws {
        try await withMockServer(handlers: Self.handlers) { server in
            let client = try RawClient(port: server.port)
            let rangeLine = example.range.map { "Range: \($0)\r\n" } ?? ""
            try client.send("GET /file HTTP/1.1\r\nHost: t\r\n\(rangeLine)\r\n")
            let response = try client.readResponse()
            #expect(response.status == example.status)
            #expect(response.header("Accept-Ranges") == "bytes")
            #expect(response.header("Content-Range") == example.contentRange)
            if let bytes = example.bytes {
                #expect(response.body == bytes.map { UInt8($0 % 256) })
            } else {
                #expect(response.body.isEmpty)
            }
        }
    }

    @Test func generatedBodiesHonourRangeToo() async throws {
        try await withMockServer(handlers: Self.handlers) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /generated?n=100000 HTTP/1.1\r\nHost: t\r\nRange: bytes=50000-50009\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 206)
            #expect(response.body == TestHandlers.generatedBytes(50000..<50010))
        }
    }

    /// `If-Range` keeps the range only for the response's strong `ETag` or its exact
    /// `Last-Modified`; anything else gets the whole body.
    @Test(arguments: [
        ("\"v1\"", 206), ("\"v2\"", 200), ("W/\"v1\"", 200),
        ("Mon, 01 Jun 2026 10:00:00 GMT", 206), ("Tue, 02 Jun 2026 10:00:00 GMT", 200),
    ])
    func ifRangeDecidesWhetherTheRangeIsHonoured(ifRange: String, status: Int) async throws {
        let handler = ClosureHandler { _ in
            ServerResponse(
                headers: ["ETag": "\"v1\"", "Last-Modified": "Mon, 01 Jun 2026 10:00:00 GMT"],
                body: .generated(length: 100) { offset, count in
                    Data(repeating: UInt8(offset % 256), count: count)
                })
        }
        try await withMockServer(handlers: [handler]) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /x HTTP/1.1\r\nHost: t\r\nRange: bytes=40-\r\nIf-Range: \(ifRange)\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == status)
            #expect(response.body.count == (status == 206 ? 60 : 100))
        }
    }

    @Test func aTruncatedBodyCanBeCutAtAChosenOffset() async throws {
        let handler = ClosureHandler { _ in
            var response = ServerResponse(body: .data(Data(repeating: 7, count: 1000)))
            response.fault = .truncatedBody
            response.truncateAfter = 123
            return response
        }
        try await withMockServer(handlers: [handler]) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /x HTTP/1.1\r\nHost: t\r\n\r\n")
            let text = String(decoding: try client.readToEnd(), as: UTF8.self)
            #expect(text.contains("Content-Length: 1000\r\n"))
            #expect(
                text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n").count
                    == 123)
        }
    }

    @Test func missingFileIs404() async throws {
        try await withMockServer(handlers: Self.handlers) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /missing-file HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try client.readResponse().status == 404)
        }
    }
}
