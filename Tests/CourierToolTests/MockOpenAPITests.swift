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

    /// `--stateful` keeps what is created, `--credentials` lets in only the configured ones, and the three
    /// options (and `--undeclared-refusals`) are refused without a document or with a malformed value.
    @Test func statefulWithCredentials() async throws {
        let document = Self.fixtures.appendingPathComponent("stateful/pet-shelter.yaml").path
        let mock = try NotesTool.Mock([
            "--openapi", document, "--stateful", "--credentials", "bearer=s3cret", "--credentials",
            "apiKey=X-API-Key:k", "--undeclared-refusals", "accept",
        ])
        defer { _ = mock.stop() }
        let transport = CurlTransport()
        func send(_ method: String, _ path: String, token: String, body: String? = nil) async throws -> (
            Int, Data
        ) {
            var request = URLRequest(url: mock.baseURL.appendingPathComponent(path))
            request.httpMethod = method
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
            let response = try await transport.send(
                TransportRequest(urlRequest: request, body: body.map { .data(Data($0.utf8)) } ?? .empty))
            return (response.status, response.body.data)
        }
        let (created, body) = try await send("POST", "v1/pets", token: "s3cret", body: #"{"name": "Rex"}"#)
        #expect(created == 201)
        let id = try #require((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["id"] as? Int)
        let (read, readBody) = try await send("GET", "v1/pets/\(id)", token: "s3cret")
        #expect(read == 200)
        #expect(
            (try JSONSerialization.jsonObject(with: readBody) as? [String: Any])?["name"] as? String == "Rex")
        #expect(try await send("GET", "v1/pets/\(id)", token: "guess").0 == 401)
        #expect(try await send("DELETE", "v1/pets/\(id)", token: "s3cret").0 == 204)
        #expect(try await send("GET", "v1/pets/\(id)", token: "s3cret").0 == 404)
        await transport.shutdown()

        for (arguments, message) in [
            (["--stateful"], "--stateful needs --openapi"),
            (["--credentials", "bearer=t"], "--credentials needs --openapi"),
            (["--openapi", document, "--credentials", "token=t"], "'token=t' is not a credential"),
            (["--openapi", document, "--undeclared-refusals", "maybe"], "--undeclared-refusals takes"),
        ] {
            let output = try await NotesTool.run(["mock", "--port", "0"] + arguments)
            #expect(output.status == 64, "\(arguments)")
            #expect(output.stderrText.contains(message), "\(output.stderrText)")
        }
    }
}
