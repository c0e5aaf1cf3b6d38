import CourierPact
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// `mock --pact-out FILE --consumer NAME`: a consumer in any language exercises the mock, and the pact
/// is merged into FILE when the mock stops (SIGTERM or SIGINT), with nothing lost when two mocks
/// write the same file at once.
@Suite(.blocksItsThread, .serialized, .timeLimit(.minutes(5)))
struct MockPactOutTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func theMockWritesThePactWhenItStops(signal: Int32) async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pacts/NotesApp-notes.json")
        let mock = try NotesTool.Mock(["--pact-out", file.path, "--consumer", "NotesApp"])
        var stopped = false
        defer { if !stopped { _ = mock.stop() } }

        let list = try await Self.get(mock.baseURL, "/notes?limit=5")
        #expect(list == 200)
        let note = try await Self.get(
            mock.baseURL, "/notes/n1", headers: ["X-Pact-Provider-State": "a note exists"])
        #expect(note == 200)
        #expect(
            try Pact(contentsOf: file).interactions.isEmpty,
            "the file is checked at start-up, and the interactions are written when the mock stops")

        mock.process.send(signal)
        let status = mock.process.wait(timeout: 30)
        stopped = true
        let log = mock.stop()
        #expect(status == 0, "\(log)")
        #expect(log.contains("notes mock: wrote 2 interactions to \(file.path)"), "\(log)")
        let pact = try Pact(contentsOf: file)
        #expect(pact.consumer == "NotesApp")
        #expect(
            pact.provider == "notes", "the provider is named for the tool unless --provider says otherwise")
        #expect(pact.interactions.count == 2)
        let get = try #require(pact.interactions.first { $0.request.path == "/notes/n1" })
        #expect(get.providerStates.map(\.name) == ["a note exists"])
        #expect(get.response.status == 200)
        let rules = get.response.matchingRules[.body]
        #expect(
            rules["$.id"] != nil && rules["$.created"] != nil,
            "matching rules come from the declared schema, not the example values: \(rules)")
    }

    @Test func twoMocksWritingOneFileAtOnceLoseNothing() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("NotesApp-notes.json")
        let perMock = 40
        for round in 0..<3 {
            let mocks = try ["a", "b"].map { name in
                (name, try NotesTool.Mock(["--pact-out", file.path, "--consumer", "NotesApp"]))
            }
            for (name, mock) in mocks {
                for index in 0..<perMock {
                    let status = try await Self.get(
                        mock.baseURL, "/notes/n\(index)",
                        headers: ["X-Pact-Description": "round \(round), mock \(name), note \(index)"])
                    #expect(status == 200)
                }
            }
            // Both stop, and so merge their interactions into the file, at the same moment.
            for (_, mock) in mocks { mock.process.send(SIGTERM) }
            for (name, mock) in mocks {
                let status = mock.process.wait(timeout: 30)
                let log = mock.stop()
                #expect(status == 0, "mock \(name): \(log)")
            }
            let descriptions = Set(try Pact(contentsOf: file).interactions.map(\.description))
            var missing: [String] = []
            for done in 0...round {
                for name in ["a", "b"] {
                    for index in 0..<perMock
                    where !descriptions.contains("round \(done), mock \(name), note \(index)") {
                        missing.append("round \(done), mock \(name), note \(index)")
                    }
                }
            }
            #expect(missing.isEmpty, "lost in round \(round): \(missing.count), such as \(missing.prefix(3))")
            #expect(descriptions.count == (round + 1) * 2 * perMock)
        }
    }

    @Test func mistakesAreRefusedBeforeTheMockListens() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pact.json")

        let noConsumer = try await NotesTool.run(["mock", "--port", "0", "--pact-out", file.path])
        #expect(noConsumer.status == 64)
        #expect(
            noConsumer.stderrText.contains("--pact-out needs --consumer NAME"), "\(noConsumer.stderrText)")
        let noFile = try await NotesTool.run(["mock", "--port", "0", "--consumer", "NotesApp"])
        #expect(noFile.status == 64)
        #expect(noFile.stderrText.contains("go with --pact-out FILE"), "\(noFile.stderrText)")

        try PactFile.merge(Pact(consumer: "OtherApp", provider: "notes"), into: file)
        let otherPair = try await NotesTool.run([
            "mock", "--port", "0", "--pact-out", file.path, "--consumer", "NotesApp",
        ])
        #expect(otherPair.status == 1)
        #expect(!otherPair.stdoutText.contains("listening on"), "\(otherPair.stdoutText)")
        #expect(
            otherPair.stderrText.contains(
                "holds the pact of OtherApp with notes, not of NotesApp with notes"),
            "\(otherPair.stderrText)")

        try Data("{\"consumer\": ".utf8).write(to: file)
        let broken = try await NotesTool.run([
            "mock", "--port", "0", "--pact-out", file.path, "--consumer", "NotesApp",
        ])
        #expect(broken.status == 1)
        #expect(broken.stderrText.contains(file.path), "the error names the file: \(broken.stderrText)")
        #expect(
            try String(contentsOf: file, encoding: .utf8) == "{\"consumer\": ",
            "a file that is not a pact is left as it was")
    }

    /// Sends GET `path` (with its query) to `base` and returns the status.
    static func get(_ base: URL, _ path: String, headers: [String: String] = [:]) async throws -> Int {
        let url = try #require(URL(string: base.absoluteString + path))
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mock-pact-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
