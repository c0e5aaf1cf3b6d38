import Foundation
import Testing

/// The README's responder example is ReadmeResponderExample.swift, verbatim: this test runs it
/// and fails when the README and the file drift apart.
@Suite(.timeLimit(.minutes(1)))
struct ReadmeResponderExampleTests {
    @Test func theResponderAndTheStubAnswer() async throws {
        let (found, missingStatus, missingBody) = try await readNotes()
        #expect(found.id == "n7")
        #expect(found.text == "Buy milk")
        #expect(missingStatus == 404)
        #expect(missingBody == "no such note")
    }

    @Test func theReadmeShowsTheResponderExampleVerbatim() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let example = try String(
            contentsOf: here.appendingPathComponent("ReadmeResponderExample.swift"), encoding: .utf8)
        let readme = try String(
            contentsOf: here.appendingPathComponent("../../../README.md").standardizedFileURL, encoding: .utf8
        )
        #expect(readme.contains("```swift\n" + example + "```"))
    }
}
