import Courier
import CourierCurl
import Foundation
import MockServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's streaming example is ReadmeStreamingExample.swift, verbatim: this test runs it
/// against the mock server and fails when the README and the file drift apart.
@Suite("README streaming example")
struct ReadmeStreamingExampleTests {
    @Test func theREADMEShowsTheFileVerbatim() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let example = try String(
            contentsOf: here.appendingPathComponent("ReadmeStreamingExample.swift"), encoding: .utf8)
        let readme = try String(
            contentsOf: here.appendingPathComponent("../../README.md").standardizedFileURL, encoding: .utf8)
        let body = example.components(separatedBy: "\n").drop { !$0.hasPrefix("/// Saves") }.joined(
            separator: "\n")
        #expect(!body.isEmpty)
        #expect(readme.contains(body.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test func theExampleRuns() async throws {
        try await withMockServer { server in
            try await CurlTransport.with { transport in
                for mapping in [
                    #"{"request": {"method": "GET", "url": "/export"}, "response": {"status": 200, "body": "0123456789"}}"#,
                    #"{"request": {"method": "GET", "url": "/live", "headers": {"Last-Event-ID": {"absent": true}}}, "response": {"status": 200, "eventStream": {"dropAfter": 1, "events": [{"id": "1", "data": "a", "retry": 10}, {"data": "lost"}]}}}"#,
                    #"{"request": {"method": "GET", "url": "/live", "headers": {"Last-Event-ID": {"equalTo": "1"}}}, "response": {"status": 204}}"#,
                ] {
                    var request = URLRequest(url: server.baseURL.appendingPathComponent("__admin/mappings"))
                    request.httpMethod = "POST"
                    let response = try await transport.send(
                        TransportRequest(urlRequest: request, body: .data(Data(mapping.utf8))))
                    #expect(response.status == 201)
                }
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID())")
                #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
                defer { try? FileManager.default.removeItem(at: file) }
                let handle = try FileHandle(forWritingTo: file)
                let manager = NetworkManager(transport: transport, baseURL: server.baseURL)
                let events = try await saveExportAndFollow(manager: manager, to: handle)
                try handle.close()
                #expect(try Data(contentsOf: file) == Data("0123456789".utf8))
                #expect(events.map(\.data) == ["a"])
            }
        }
    }
}
