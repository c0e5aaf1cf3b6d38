import Foundation
import Testing

/// A user's tool of a few lines (`Tests/NotesTool`: the README's notes API) gets `openapi`, `mock`
/// and `call` from the declarations, with generated usage and the same exit statuses as `courier`.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct NotesToolTests {
    @Test func helpListsTheCommandsUnderTheToolsName() async throws {
        let output = try await NotesTool.run(["--help"])
        #expect(output.status == 0, "\(output.stderrText)")
        for command in ["mock", "call", "openapi"] {
            #expect(output.stdoutText.contains("\n  \(command) "), "\(output.stdoutText)")
        }
        #expect(!output.stdoutText.contains("demo"), "the demo's commands belong to courier alone")
        let none = try await NotesTool.run([])
        #expect(none.status == 64)
        let unknown = try await NotesTool.run(["demo"])
        #expect(unknown.status == 64)
        #expect(unknown.stderrText.contains("notes: unknown command 'demo'"), "\(unknown.stderrText)")
        let mockHelp = try await NotesTool.run(["mock", "--help"])
        #expect(mockHelp.stdoutText.contains("usage: notes mock [--host HOST]"), "\(mockHelp.stdoutText)")
        #expect(
            !mockHelp.stdoutText.contains("--seed-data"), "the social backend's option is courier's alone")
        let bogus = try await NotesTool.run(["openapi", "--bogus"])
        #expect(bogus.status == 64)
        #expect(bogus.stderrText.contains("see 'notes openapi --help'"), "\(bogus.stderrText)")
    }

    @Test func openapiPrintsTheNotesDocument() async throws {
        let output = try await NotesTool.run(["openapi", "--server", "http://127.0.0.1:9"])
        #expect(output.status == 0, "\(output.stderrText)")
        let document = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        #expect(Set(paths.keys) == ["/notes", "/notes/{id}"])
        #expect((document["info"] as? [String: Any])?["title"] as? String == "notes")
    }

    @Test func callListsTheOperationsAndHelpsWithEachParameter() async throws {
        let list = try await NotesTool.run(["call", "--list"])
        #expect(list.status == 0, "\(list.stderrText)")
        for id in ["notes.list", "notes.note", "notes.create", "notes.delete"] {
            #expect(list.stdoutText.contains(id), "\(list.stdoutText)")
        }
        let help = try await NotesTool.run(["call", "notes.list", "--help"])
        #expect(help.status == 0, "\(help.stderrText)")
        let limit = try #require(help.stdoutText.split(separator: "\n").first { $0.hasPrefix("  --limit") })
        #expect(limit.contains("<int>") && limit.contains("How many"), "\(help.stdoutText)")
        #expect(
            limit.contains("optional") && limit.contains("default 20") && limit.contains("1 to 50"),
            "\(limit)")
        #expect(help.stdoutText.contains("GET /notes"), "\(help.stdoutText)")
        let create = try await NotesTool.run(["call", "notes.create", "--help"])
        let text = try #require(create.stdoutText.split(separator: "\n").first { $0.hasPrefix("  --text") })
        #expect(text.contains("required") && text.contains("1 to 500 characters"), "\(create.stdoutText)")
    }

    @Test func callTalksToTheSpawnedMock() async throws {
        let mock = try NotesTool.Mock()
        defer { _ = mock.stop() }
        let base = mock.baseURL.absoluteString
        let note = try await NotesTool.run(["call", "notes.note", "--id", "n1", "--base-url", base])
        #expect(note.status == 0, "\(note.stderrText)")
        let body = try #require(try JSONSerialization.jsonObject(with: note.stdout) as? [String: Any])
        #expect(body["id"] is String && body["created"] is String, "\(note.stdoutText)")
        let tooMany = try await NotesTool.run(["call", "notes.list", "--limit", "99", "--base-url", base])
        #expect(tooMany.status == 64, "checked against the declaration before sending")
        #expect(tooMany.stderrText.contains("--limit must be <= 50"), "\(tooMany.stderrText)")
        let missing = try await NotesTool.run(["call", "notes.note", "--base-url", base])
        #expect(
            missing.status == 64 && missing.stderrText.contains("--id is required"), "\(missing.stderrText)")
        let unknown = try await NotesTool.run(["call", "notes.nope", "--base-url", base])
        #expect(
            unknown.status == 64 && unknown.stderrText.contains("notes call --list"), "\(unknown.stderrText)")
    }
}

@Test func theReadmeShowsTheNotesToolVerbatim() throws {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let tool = try String(
        contentsOf: here.appendingPathComponent("../NotesTool/NotesTool.swift"), encoding: .utf8)
    let readme = try String(contentsOf: here.appendingPathComponent("../../README.md"), encoding: .utf8)
    #expect(readme.contains("```swift\n" + tool + "```"))
    #expect(tool.split(separator: "\n").count < 12, "a user's tool stays a few lines")
}

/// `verify` against the tool's own `mock`: everything holds, and what an example server cannot know,
/// that an unknown id is unknown, is skipped with the reason.
@Test(.timeLimit(.minutes(2)))
func verifyAgainstTheSpawnedMock() async throws {
    let mock = try NotesTool.Mock()
    defer { _ = mock.stop() }
    let output = try await NotesTool.run([
        "verify", "--base-url", mock.baseURL.absoluteString, "--allow-unsafe", "--token", "t",
    ])
    #expect(output.status == 0, "\(output.stdoutText)\(output.stderrText)")
    #expect(!output.stdoutText.contains("FAIL"), "\(output.stdoutText)")
    let skipped = output.stdoutText.split(separator: "\n").filter { $0.hasPrefix("skip") }
    #expect(skipped.count == 2, "\(output.stdoutText)")
    #expect(
        skipped.allSatisfy { $0.contains("[unknown id]") && $0.contains("answered from its examples") },
        "\(output.stdoutText)")
    let withoutToken = try await NotesTool.run(["verify", "--base-url", mock.baseURL.absoluteString])
    #expect(
        withoutToken.stdoutText.contains("skip  notes.create [sample] POST"), "\(withoutToken.stdoutText)")
}
