import Courier
import CourierCurl
import CourierPrimitives
import CourierTesting
import CourierURLSession
import Foundation
import MockServer
import TestSupport
import Testing

/// The README's download and per-endpoint examples are these files, verbatim; the tests
/// compile and run them.
@Suite("README download and per-endpoint examples")
struct ReadmeDownloadAndChoicesTests {
    @Test(arguments: ["ReadmeDownloadExample.swift", "ReadmeChoicesExample.swift"])
    func readmeShowsTheExampleVerbatim(file: String) throws {
        #expect(try ReadmeText.showsVerbatim(file))
    }

    @Test func theDownloadExampleResumesACutDownload() async throws {
        let size: Int64 = 2 << 20
        let bytes: @Sendable (Int64, Int) -> Data = Pattern.bytes
        let cut = Locked(true)
        let handler = ClosureHandler { request in
            guard request.path == "/big" else { return nil }
            var response = ServerResponse(
                headers: ["ETag": "\"e1\""], body: .generated(length: size, producer: bytes))
            if cut.withLock({ first in
                defer { first = false }; return first
            }) {
                response.fault = .truncatedBody
                response.truncateAfter = size / 3
            }
            return response
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-readme-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("big.bin")
        let count = try await withMockServer(handlers: [handler]) { server in
            try await CurlTransport.with { transport in
                try await fetchLargeFile(
                    from: server.baseURL.appendingPathComponent("big"), to: file, transport: transport)
            }
        }
        #expect(count == size)
        #expect(Bool(try Data(contentsOf: file) == bytes(0, Int(size))))
    }

    @Test func theSearchExampleDecodesA404WithItsOwnDecoder() async throws {
        let handler = ClosureHandler { request in
            guard request.path == "/search" else { return nil }
            return request.queryValue("q") == "courier"
                ? .json(Data(#"{"hits":[{"page_title":"Courier","updated_at":60}]}"#.utf8))
                : .json(Data(#"{"hits":[]}"#.utf8), status: 404)
        }
        let (found, missing) = try await withMockServer(handlers: [handler]) { server in
            let manager = NetworkManager(transport: URLSessionTransport(), baseURL: server.baseURL)
            return (
                try await manager.send(SearchAPI.search("courier")),
                try await manager.send(SearchAPI.search("nothing"))
            )
        }
        #expect(found.value.hits == [Hit(pageTitle: "Courier", updatedAt: Date(timeIntervalSince1970: 60))])
        #expect(missing.status == 404)
        #expect(missing.value.hits.isEmpty)
    }
}
