import Courier
import CourierContract
import CourierContractModel
import CourierCurl
import CourierOpenAPI
import CourierTesting
import CourierTool
import Foundation
import MockServer
import TestSupport
import Testing

@testable import notes_tool

/// Provider verification from an OpenAPI document: the notes API's own document, verified against the
/// mock of that document (clean) and against the mock of a drifted copy (each drift reported).
@Suite(.timeLimit(.minutes(5)))
struct DocumentVerificationTests {
    static func notesDocument() throws -> JSONValue {
        OpenAPIWriter.make(title: "notes", operations: NotesAPI.operations)
    }

    static func load(_ root: JSONValue) throws -> OpenAPIDocument {
        try OpenAPIDocument.parse(root.serialized(pretty: true), url: URL(fileURLWithPath: "notes.json"))
    }

    /// The notes document with the note's `pinned` written as a string and `notes.create` answering 200.
    static func drifted() throws -> JSONValue {
        var root = try notesDocument()
        root = root.replacing(
            ["components", "schemas", "Note", "properties", "pinned"],
            with: .object(["type": .string("string")]))
        let created = try #require(root["paths"]?["/notes"]?["post"]?["responses"]?["201"])
        root = root.replacing(["paths", "/notes", "post", "responses", "201"], with: nil)
        root = root.replacing(["paths", "/notes", "post", "responses", "200"], with: created)
        return root
    }

    static func verify(_ document: JSONValue, against served: JSONValue) async throws -> VerificationReport {
        let handler = OpenAPIHandler(document: try load(served), seed: 3)
        return try await withMockServer(handlers: [handler]) { server in
            let transport = CurlTransport()
            let report = await DocumentVerification(
                document: try load(document), token: "t", allowUnsafe: true
            )
            .run(against: server.baseURL, transport: transport)
            await transport.shutdown()
            return report
        }
    }

    @Test func theMockOfTheDocumentIsClean() async throws {
        let document = try Self.notesDocument()
        let report = try await Self.verify(document, against: document)
        #expect(report.isClean, "\(report.summary)")
        let names = Set(report.cases.map(\.name))
        #expect(
            names.isSuperset(of: ["sample", "no token", "unknown id", "bad body", "bad parameter"]),
            "\(names)")
        let unknown = report.cases.filter { $0.name == "unknown id" }
        #expect(
            !unknown.isEmpty
                && unknown.allSatisfy { $0.skipped?.contains("answered from its examples") == true })
        #expect(
            report.cases.filter { $0.name != "unknown id" }.allSatisfy { $0.skipped == nil },
            "\(report.summary)")
    }

    @Test func theMockOfADriftedCopyIsReported() async throws {
        let report = try await Self.verify(try Self.notesDocument(), against: try Self.drifted())
        #expect(!report.isClean)
        let found = Set(
            report.violations.map {
                "\($0.case.operation) [\($0.case.name)] \($0.violation.rule) \($0.violation.path)"
            })
        #expect(found.contains("notes.note [sample] type response.pinned"), "\(report.summary)")
        #expect(found.contains("notes.create [sample] status status"), "\(report.summary)")
    }

    @Test func withoutTheFlagUnsafeMethodsAreSkipped() async throws {
        let document = try Self.notesDocument()
        let handler = OpenAPIHandler(document: try Self.load(document))
        let report = try await withMockServer(handlers: [handler]) { server in
            let transport = CurlTransport()
            let report = await DocumentVerification(document: try Self.load(document))
                .run(against: server.baseURL, transport: transport)
            await transport.shutdown()
            return report
        }
        let unsafe = report.cases.filter { ["POST", "DELETE"].contains($0.method) }
        #expect(!unsafe.isEmpty)
        #expect(unsafe.allSatisfy { $0.skipped != nil && $0.status == nil }, "\(report.summary)")
    }

    /// `notes verify --openapi FILE` against `notes mock --openapi` of the same file and of a drifted copy.
    @Test func theCommandVerifiesFromADocument() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-openapi-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.json")
        let driftedFile = folder.appendingPathComponent("drifted.json")
        try Self.notesDocument().serialized(pretty: true).write(to: file)
        try Self.drifted().serialized(pretty: true).write(to: driftedFile)
        let arguments = ["verify", "--openapi", file.path, "--allow-unsafe", "--token", "t", "--base-url"]

        let mock = try NotesTool.Mock(["--openapi", file.path])
        let clean = try await NotesTool.run(arguments + [mock.baseURL.absoluteString])
        _ = mock.stop()
        #expect(clean.status == 0, "\(clean.stdoutText)\(clean.stderrText)")
        #expect(clean.stdoutText.contains("ok    notes.note [sample] GET"), "\(clean.stdoutText)")

        let driftedMock = try NotesTool.Mock(["--openapi", driftedFile.path])
        let drifted = try await NotesTool.run(arguments + [driftedMock.baseURL.absoluteString])
        _ = driftedMock.stop()
        #expect(drifted.status == 1, "\(drifted.stdoutText)\(drifted.stderrText)")
        #expect(
            drifted.stdoutText.contains("response.pinned: expected boolean, got string [type]"),
            "\(drifted.stdoutText)")

        let unreadable = try await NotesTool.run([
            "verify", "--openapi", folder.appendingPathComponent("none.yaml").path, "--base-url",
            "http://127.0.0.1:9",
        ])
        #expect(unreadable.status == 65, "\(unreadable.stderrText)")
        let both = try await NotesTool.run([
            "verify", "--openapi", file.path, "--strict", "--base-url", "http://127.0.0.1:9",
        ])
        #expect(both.status == 64, "\(both.stderrText)")
    }
}

extension JSONValue {
    /// This value with the member at `path` set to `value` (removed when nil).
    func replacing(_ path: [String], with value: JSONValue?) -> JSONValue {
        guard let key = path.first, case .object(var members) = self else { return self }
        if path.count == 1 {
            members[key] = value
        } else {
            members[key] = (members[key] ?? .object([:])).replacing(Array(path.dropFirst()), with: value)
        }
        return .object(members)
    }
}
