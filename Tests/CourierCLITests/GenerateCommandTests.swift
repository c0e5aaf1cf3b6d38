import Foundation
import TestSupport
import Testing

/// `courier generate DOCUMENT --output DIR`: the files, what is not declared on stderr, and the exit statuses.
@Suite(.blocksItsThread) struct GenerateCommandTests {
    static let features = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/OpenAPI/generate/features.yaml")

    @Test func writesTheFilesAndReportsWhatIsNotDeclared() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "generate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.json")
        let output = try await CourierProcess.run([
            "generate", Self.features.path, "--output", folder.appendingPathComponent("Sources").path,
            "--report", report.path,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let files = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("Sources").path)
        #expect(
            Set(files) == [
                "Models.swift", "PetsAPI.swift", "DrawingAPI.swift", "PetFeaturesAPI.swift",
                "PetFeaturesDocument.swift",
            ])
        #expect(
            output.stderr.contains(
                "not declared: /paths/~1pets/get/parameters/1: cookie parameters are not declared"),
            "\(output.stderr)")
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [[String: Any]])
        #expect(
            entries.contains {
                $0["pointer"] as? String == "/components/schemas/NewPet/properties/tags/minItems"
            })
    }

    /// `--access public` makes the declarations usable from another module; a document's warnings
    /// are printed with their pointers.
    @Test func publicAccessAndWarnings() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "generate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("api.yaml")
        try Data(
            """
            openapi: 3.1.0
            info: {title: Tags, version: '1'}
            paths:
              /tags:
                get:
                  responses:
                    '200':
                      description: ok
                      content: {application/json: {schema: {type: [array, null], items: {type: string}}}}
            """.utf8
        ).write(to: document)
        let output = try await CourierProcess.run([
            "generate", document.path, "--output", folder.appendingPathComponent("Sources").path,
            "--access", "public", "--no-format",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                "warning: \(document.path)#/paths/~1tags/get/responses/200/content/application~1json/schema/type/1"
            ),
            "\(output.stderr)")
        let tags = try String(
            contentsOf: folder.appendingPathComponent("Sources/TagsAPI.swift"), encoding: .utf8)
        #expect(tags.contains("public enum TagsAPI: API {"), "\(tags)")
        let wrong = try await CourierProcess.run([
            "generate", document.path, "--output", folder.path, "--access", "open",
        ])
        #expect(wrong.status == 64, "\(wrong.stderr)")
    }

    @Test func usageMistakesAndUnreadableDocumentsHaveTheirOwnStatus() async throws {
        #expect(try await CourierProcess.run(["generate", "--output", "/tmp/x"]).status == 64)
        #expect(try await CourierProcess.run(["generate", Self.features.path]).status == 64)
        let missing = try await CourierProcess.run([
            "generate", "/nonexistent/api.yaml", "--output", "/tmp/x",
        ])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("api.yaml"), "\(missing.stderr)")
    }
}
