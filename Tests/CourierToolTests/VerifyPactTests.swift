import CourierPact
import CourierTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// `notes-tool verify --pact FILE`: a pact that `notes-tool mock --pact-out` wrote from a consumer's
/// calls, replayed against a hand-written provider, faithful or with one planted drift.
@Suite(.blocksItsThread, .timeLimit(.minutes(5)))
struct VerifyPactTests {
    @Test func theFaithfulProviderPassesAndUnsafeInteractionsNeedTheFlag() async throws {
        let folder = try MockPactOutTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pact = try await Self.recordPact(in: folder)
        let junit = folder.appendingPathComponent("pact.xml")
        try await withMockServer(handlers: [DriftingProvider()]) { server in
            let all = try await NotesTool.run([
                "verify", "--pact", pact.path, "--base-url", server.baseURL.absoluteString, "--allow-unsafe",
                "--junit", junit.path,
            ])
            #expect(all.status == 0, "\(all.stdoutText)\(all.stderrText)")
            #expect(
                all.stdoutText.contains("Verifying a pact between NotesApp and notes"), "\(all.stdoutText)")
            #expect(
                all.stdoutText.contains("\(Self.interactions) interactions, 0 failed, 0 mismatches"),
                "\(all.stdoutText)")
        }
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(
            xml.contains("tests=\"\(Self.interactions)\" failures=\"0\" errors=\"0\" skipped=\"0\""), "\(xml)"
        )
        #expect(xml.contains("classname=\"NotesApp-notes\" name=\"create a note: POST "), "\(xml)")

        try await withMockServer(handlers: [DriftingProvider(drift: .missingAuthCheck)]) { server in
            let safe = try await NotesTool.run([
                "verify", "--pact", pact.path, "--base-url", server.baseURL.absoluteString,
                "--junit", junit.path,
            ])
            #expect(
                safe.status == 0,
                "without --allow-unsafe the writes are not replayed, so their drift is not met: \(safe.stdoutText)"
            )
            #expect(
                safe.stdoutText.contains("3 skipped: they change data (POST, PUT, PATCH, DELETE)"),
                "\(safe.stdoutText)")
            #expect(safe.stdoutText.contains("  DELETE /notes/n1: delete a note"), "\(safe.stdoutText)")
        }
        let skipped = try String(contentsOf: junit, encoding: .utf8)
        #expect(skipped.contains("failures=\"0\" errors=\"0\" skipped=\"3\""), "\(skipped)")
    }

    /// What `verify --pact` must say about each planted drift: the interaction that meets it and the
    /// mismatch, in Pact's terms.
    static let expected: [DriftingProvider.Drift: (interaction: String, mismatch: String)] = [
        .removedField: ("one note", "BodyMismatch $.text"),
        .changedType: ("one note", "BodyMismatch $.pinned"),
        .wrongStatus: ("create a note", "StatusMismatch status"),
        .missingAuthCheck: ("create a note without a token", "StatusMismatch status"),
        .enumOutside: ("one note", "BodyMismatch $.color"),
        .wrongContentType: ("one note", "HeaderMismatch Content-Type"),
        .nullInRequired: ("one note", "BodyMismatch $.id"),
        .brokenFormat: ("one note", "BodyMismatch $.created"),
        .undeclaredStatus: ("too many notes", "StatusMismatch status"),
        .arrayItemWrongType: ("one note", "BodyMismatch $.tags[0]"),
        .missing404: ("a note that is gone", "StatusMismatch status"),
        .idBreaksPattern: ("one note", "BodyMismatch $.id"),
        .lengthBroken: ("one note", "BodyMismatch $.text"),
        .boundaryRefused: ("the most notes", "StatusMismatch status"),
        .optionalRequired: ("notes, as many as the provider gives", "StatusMismatch status"),
    ]

    /// Every drift but an added property, which Pact's type matching allows (a consumer that ignores
    /// a field is not broken by it; only `verify --strict` against the declaration reports it).
    static let breakingDrifts = DriftingProvider.Drift.allCases.filter { $0 != .extraField }

    @Test func anAddedPropertyDoesNotFailThePact() async throws {
        let folder = try MockPactOutTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pact = try await Self.recordPact(in: folder)
        try await withMockServer(handlers: [DriftingProvider(drift: .extraField)]) { server in
            let output = try await NotesTool.run([
                "verify", "--pact", pact.path, "--base-url", server.baseURL.absoluteString, "--allow-unsafe",
            ])
            #expect(output.status == 0, "\(output.stdoutText)\(output.stderrText)")
        }
    }

    @Test(arguments: breakingDrifts)
    func everyPlantedDriftFailsTheVerification(drift: DriftingProvider.Drift) async throws {
        let folder = try MockPactOutTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pact = try await Self.recordPact(in: folder)
        let (interaction, mismatch) = try #require(Self.expected[drift])
        try await withMockServer(handlers: [DriftingProvider(drift: drift)]) { server in
            let output = try await NotesTool.run([
                "verify", "--pact", pact.path, "--base-url", server.baseURL.absoluteString, "--allow-unsafe",
            ])
            #expect(output.status == 1, "\(drift): \(output.stdoutText)\(output.stderrText)")
            let lines = output.stdoutText.split(separator: "\n").map(String.init)
            let start = try #require(
                lines.firstIndex { $0.hasPrefix("  \(interaction)") && $0.hasSuffix(": FAILED") },
                "\(drift): '\(interaction)' did not fail: \(output.stdoutText)")
            let details = lines[(start + 1)...].prefix { $0.hasPrefix("      ") }
            #expect(
                details.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(mismatch) },
                "\(drift): no '\(mismatch)' under '\(interaction)': \(output.stdoutText)")
        }
    }

    @Test(arguments: [
        (["--provider-states-url", "http://127.0.0.1:9/states"], 64, "go with --pact FILE"),
        (["--pact", "PACT", "--token", "t"], 64, "--token does not go with --pact"),
        (
            ["--pact", "PACT", "--provider-states-url", "ftp://x"], 64,
            "--provider-states-url takes an absolute"
        ),
        (["--pact", "NOT-A-PACT"], 65, "NOT-A-PACT"),
    ])
    func mistakesAreRefused(arguments: [String], status: Int32, message: String) async throws {
        let folder = try MockPactOutTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pact = folder.appendingPathComponent("pact.json")
        try PactFile.merge(Pact(consumer: "NotesApp", provider: "notes"), into: pact)
        let notPact = folder.appendingPathComponent("NOT-A-PACT")
        try Data("{\"interactions\": 3}".utf8).write(to: notPact)
        let resolved = arguments.map { $0 == "PACT" ? pact.path : $0 == "NOT-A-PACT" ? notPact.path : $0 }
        let output = try await NotesTool.run(["verify", "--base-url", "http://127.0.0.1:9"] + resolved)
        #expect(output.status == status, "\(output.stdoutText)\(output.stderrText)")
        #expect(output.stderrText.contains(message), "\(output.stderrText)")
    }

    /// How many interactions `recordPact` records.
    static let interactions = 9

    /// A consumer's calls to `notes-tool mock --pact-out`, recorded as the pact of NotesApp with
    /// notes; a stub answers the one note that is gone, which the mock's examples cannot.
    static func recordPact(in folder: URL) async throws -> URL {
        let file = folder.appendingPathComponent("NotesApp-notes.json")
        let mappings = folder.appendingPathComponent("stubs/mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try Data(
            #"""
            {"request": {"method": "GET", "urlPath": "/notes/gone"},
             "response": {"status": 404, "headers": {"Content-Type": "application/json"},
                          "jsonBody": {"error": "not_found", "message": "no note gone"}}}
            """#.utf8
        ).write(to: mappings.appendingPathComponent("gone.json"))
        let mock = try NotesTool.Mock([
            "--pact-out", file.path, "--consumer", "NotesApp", "--mappings",
            folder.appendingPathComponent("stubs").path,
        ])
        var stopped = false
        defer { if !stopped { _ = mock.stop() } }
        let token = "Bearer \(DriftingProvider.token)"
        let json = "application/json"
        let calls: [(String, String, String, [String: String], String?, Int)] = [
            ("GET", "/notes?limit=5", "some notes", [:], nil, 200),
            ("GET", "/notes?limit=50", "the most notes", [:], nil, 200),
            ("GET", "/notes", "notes, as many as the provider gives", [:], nil, 200),
            ("GET", "/notes?limit=99", "too many notes", [:], nil, 400),
            ("GET", "/notes/n1", "one note", [:], nil, 200),
            ("GET", "/notes/gone", "a note that is gone", [:], nil, 404),
            (
                "POST", "/notes", "create a note", ["Authorization": token, "Content-Type": json],
                #"{"text": "Buy milk"}"#, 201
            ),
            (
                "POST", "/notes", "create a note without a token", ["Content-Type": json],
                #"{"text": "Buy milk"}"#, 401
            ),
            ("DELETE", "/notes/n1", "delete a note", ["Authorization": token], nil, 204),
        ]
        #expect(calls.count == interactions)
        for (method, path, description, headers, body, status) in calls {
            var request = URLRequest(url: try #require(URL(string: mock.baseURL.absoluteString + path)))
            request.httpMethod = method
            request.setValue(description, forHTTPHeaderField: "X-Pact-Description")
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            request.httpBody = body.map { Data($0.utf8) }
            let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == status, "\(method) \(path)")
        }
        mock.process.send(SIGTERM)
        let status = mock.process.wait(timeout: 30)
        stopped = true
        let log = mock.stop()
        #expect(status == 0, "\(log)")
        return file
    }
}
