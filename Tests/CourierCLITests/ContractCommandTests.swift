import CourierPrimitives
import Foundation
import TestSupport
import Testing

/// `courier contract diff` against the social API's own document, and against one a provider changed.
@Suite(.blocksItsThread) struct ContractCommandTests {
    /// The social API's document as `courier openapi` writes it, changed by `edit`, in a new folder.
    func socialDocument(_ edit: (inout [String: JSONValue]) -> Void = { _ in }) async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("provider.json")
        let written = try await CourierProcess.run(["openapi", "--output", file.path])
        #expect(written.status == 0, "\(written.stderr)")
        guard case .object(var document) = try JSONValue.parse(Data(contentsOf: file)) else {
            Issue.record("courier openapi wrote something else than an object")
            return file
        }
        edit(&document)
        try JSONValue.object(document).prettyData().write(to: file)
        return file
    }

    @Test func theSocialAPIAgainstItsOwnDocumentExitsZero() async throws {
        let file = try await socialDocument()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let output = try await CourierProcess.run(["contract", "diff", file.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdoutText == "no difference\n")
    }

    @Test func aRemovedOperationExitsOneAndIsNamed() async throws {
        let file = try await socialDocument { document in
            guard case .object(var paths) = document["paths"] else { return }
            paths["/timeline"] = nil
            document["paths"] = .object(paths)
        }
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let text = try await CourierProcess.run(["contract", "diff", file.path])
        #expect(text.status == 1, "\(text.stderr)")
        #expect(
            text.stdoutText.contains("GET /timeline [api-path-removed-without-deprecation]"),
            "\(text.stdoutText)")
        let json = try await CourierProcess.run(["contract", "diff", file.path, "--json"])
        #expect(json.status == 1)
        let report = try JSONValue.parse(json.stdout)
        #expect(
            report["breaking"]
                == .array([
                    .object([
                        "rule": .string("api-path-removed-without-deprecation"),
                        "operation": .string("GET /timeline"),
                        "message": .string("the path is gone"), "client": .string("/paths/~1timeline/get"),
                    ])
                ]))
        #expect(report["harmless"] == .array([]))
    }

    @Test func clientComparesTwoDocuments() async throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/OpenAPI/diff")
        let client = fixtures.appendingPathComponent("client.json").path
        let broken = try await CourierProcess.run([
            "contract", "diff", fixtures.appendingPathComponent("security-added.json").path, "--client",
            client,
        ])
        #expect(broken.status == 1, "\(broken.stderr)")
        #expect(broken.stdoutText.contains("GET /items [api-security-added]"), "\(broken.stdoutText)")
        let same = try await CourierProcess.run(["contract", "diff", client, "--client", client])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdoutText == "no difference\n")
    }

    @Test func usageMistakesAndUnreadableDocumentsHaveTheirOwnStatus() async throws {
        #expect(try await CourierProcess.run(["contract", "diff"]).status == 64)
        #expect(try await CourierProcess.run(["contract"]).status == 64)
        #expect(try await CourierProcess.run(["contract", "diff", "a.json", "b.json"]).status == 64)
        let missing = try await CourierProcess.run(["contract", "diff", "/nonexistent/provider.yaml"])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("provider.yaml"), "\(missing.stderr)")
    }
}
