import Courier
import CourierCurl
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `mock --openapi FILE [--seed N]`, which every tool built on CourierTool has: the document replaces the
/// declared APIs, an invalid one is refused before the server starts, `--seed` needs a document.
@Suite struct MockOpenAPITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/OpenAPI")

    private func get(_ url: URL, _ transport: CurlTransport) async throws -> (Int, Data) {
        let response = try await transport.send(
            TransportRequest(urlRequest: URLRequest(url: url), body: .empty))
        return (response.status, response.body.data)
    }

    @Test func servesTheDocumentInsteadOfTheDeclaredAPIs() async throws {
        let document = Self.fixtures.appendingPathComponent("petstore-3.0.yaml").path
        let first = try NotesTool.Mock(["--openapi", document, "--seed", "5"])
        defer { _ = first.stop() }
        let second = try NotesTool.Mock(["--openapi", document, "--seed", "5"])
        defer { _ = second.stop() }
        let transport = CurlTransport()
        let (status, body) = try await get(first.baseURL.appendingPathComponent("v1/pets"), transport)
        #expect(status == 200)
        #expect(try JSONSerialization.jsonObject(with: body) is [Any])
        let (_, again) = try await get(second.baseURL.appendingPathComponent("v1/pets"), transport)
        #expect(again == body, "the same seed gives the same answer")
        let (notes, _) = try await get(first.baseURL.appendingPathComponent("notes"), transport)
        #expect(notes == 404, "the declared notes API is not served beside the document")
        await transport.shutdown()
    }

    @Test func anInvalidDocumentIsRefusedWithEachPointer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mock-openapi-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.yaml")
        try Data(
            "openapi: 3.0.3\ninfo: {title: T}\npaths:\n  /a/{id}:\n    get: {responses: {'200': {}}}\n".utf8
        )
        .write(to: file)
        let output = try await NotesTool.run(["mock", "--port", "0", "--openapi", file.path])
        #expect(output.status == 1)
        #expect(output.stderrText.contains("#/info/version: required"), "\(output.stderrText)")
        #expect(
            output.stderrText.contains("#/paths/~1a~1%7Bid%7D/get: the path variable {id}"),
            "\(output.stderrText)")
        let seedAlone = try await NotesTool.run(["mock", "--port", "0", "--seed", "3"])
        #expect(seedAlone.status == 64)
        #expect(seedAlone.stderrText.contains("--seed needs --openapi"), "\(seedAlone.stderrText)")
    }
}
