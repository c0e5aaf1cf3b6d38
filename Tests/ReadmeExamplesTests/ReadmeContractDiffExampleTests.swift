import CourierOpenAPI
import Foundation
import TestSupport
import Testing

/// The README's contract-diff example is ReadmeContractDiffExample.swift, verbatim.
@Suite struct ReadmeContractDiffExampleTests {
    @Test func readmeShowsTheCompiledExampleVerbatim() throws {
        #expect(try ReadmeText.showsVerbatim("ReadmeContractDiffExample.swift"))
    }

    @Test func theExamplePassesAHarmlessChange() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/OpenAPI/diff").standardizedFileURL
        try expectNoBreakingChange(
            client: OpenAPIDocument.load(from: folder.appendingPathComponent("client.json")),
            provider: OpenAPIDocument.load(from: folder.appendingPathComponent("operation-added.json")))
    }
}
