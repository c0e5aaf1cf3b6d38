import Foundation
import MockServer
import TestSupport
import Testing

@Suite("curl command line against the mock server (scripts/install-deps.sh installs curl)", .blocksItsThread)
struct CurlCommandTests {
    let curl = ExternalTool.find("curl") ?? "curl"

    @Test func keepAliveConnectionIsReused() async throws {
        try await withMockServer(handlers: TestHandlers.all) { server in
            let output = try await ExternalTool.run(
                curl,
                ["-sv", "\(server.baseURL)/hello", "\(server.baseURL)/hello", "\(server.baseURL)/hello"])
            #expect(output.status == 0)
            #expect(output.stdout == "hellohellohello")
            #expect(output.stderr.contains("Re-using existing connection"))
            #expect(output.stderr.components(separatedBy: "Connected to").count == 2)
        }
    }

    @Test func chunkedUploadArrivesWhole() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-curl-\(UUID().uuidString)")
        let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try payload.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withMockServer(handlers: TestHandlers.all) { server in
            let output = try await ExternalTool.run(
                curl,
                [
                    "-sv", "-H", "Transfer-Encoding: chunked", "--data-binary", "@\(file.path)", "-o",
                    file.path + ".out",
                    "\(server.baseURL)/echo",
                ])
            #expect(output.status == 0)
            #expect(output.stderr.contains("Transfer-Encoding: chunked"))
            let received = try Data(contentsOf: URL(fileURLWithPath: file.path + ".out"))
            // One Bool: on a mismatch Swift Testing would diff the two buffers, which takes minutes.
            #expect(Bool(received == payload), "\(received.count) bytes back of \(payload.count) sent")
            try? FileManager.default.removeItem(atPath: file.path + ".out")
        }
    }

    @Test func expectContinueIsAnswered() async throws {
        try await withMockServer(handlers: TestHandlers.all) { server in
            let output = try await ExternalTool.run(
                curl,
                ["-sv", "-H", "Expect: 100-continue", "--data-binary", "ping", "\(server.baseURL)/echo"])
            #expect(output.status == 0)
            #expect(output.stderr.contains("HTTP/1.1 100 Continue"))
            #expect(output.stdout == "ping")
        }
    }

    @Test func rangeDownloadAndHead() async throws {
        try await withMockServer(handlers: TestHandlers.all) { server in
            let range = try await ExternalTool.run(
                curl, ["-s", "-r", "10-19", "\(server.baseURL)/generated?n=100"])
            #expect(Array(range.stdout.utf8) == TestHandlers.generatedBytes(10..<20))
            let head = try await ExternalTool.run(curl, ["-sI", "\(server.baseURL)/generated?n=100"])
            #expect(head.stdout.contains("Content-Length: 100"))
            #expect(head.stdout.contains("Accept-Ranges: bytes"))
        }
    }
}
