import Foundation
import Testing

/// A user's tool has `contract diff` against its own declared API, not the social API.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct NotesToolContractTests {
    @Test func theNotesAPIAgainstItsOwnDocumentAndAgainstAChangedOne() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("provider.json")
        let written = try await NotesTool.run(["openapi", "--output", file.path])
        #expect(written.status == 0, "\(written.stderrText)")
        let same = try await NotesTool.run(["contract", "diff", file.path])
        #expect(same.status == 0, "\(same.stderrText)")
        #expect(same.stdoutText == "no difference\n")
        // The provider drops GET /notes/{id}: the notes tool says so, for its own API.
        var document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var paths = try #require(document["paths"] as? [String: Any])
        paths["/notes/{id}"] = nil
        document["paths"] = paths
        try JSONSerialization.data(withJSONObject: document).write(to: file)
        let changed = try await NotesTool.run(["contract", "diff", file.path])
        #expect(changed.status == 1, "\(changed.stderrText)")
        #expect(
            changed.stdoutText.contains("GET /notes/{id} [api-path-removed-without-deprecation]"),
            "\(changed.stdoutText)")
    }
}
