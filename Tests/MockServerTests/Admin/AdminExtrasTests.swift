import Foundation
import MockServer
import TestSupport
import Testing

/// Admin routes WireMock clients call beyond mappings and the journal: save, metadata, settings, shutdown.
@Suite(.blocksItsThread)
struct AdminExtrasTests {
    private func temporaryRoot() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("admin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        return root
    }

    @Test func saveWritesTheStubsToTheMappingsFolder() async throws {
        let root = try temporaryRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        var configuration = MockServerConfiguration()
        configuration.mappingsDirectory = root
        let id = try await withMockServer(configuration: configuration) { server in
            let created = try perform(
                server, "POST", "/__admin/mappings",
                body: #"{"request": {"url": "/saved"}, "response": {"body": "kept"}}"#)
            let id = try #require(json(created)["id"] as? String)
            let saved = try perform(server, "POST", "/__admin/mappings/save")
            #expect(saved.status == 200, "\(saved.text)")
            return id
        }
        let file = root.appendingPathComponent("mappings/\(id).json")
        #expect(FileManager.default.fileExists(atPath: file.path))
        try await withMockServer(configuration: configuration) { server in
            #expect(server.stubCount == 1)
            #expect(try perform(server, "/saved").text == "kept")
            // Saving again does not duplicate what came from the folder.
            #expect(try perform(server, "POST", "/__admin/mappings/save").status == 200)
            let files = try FileManager.default.contentsOfDirectory(
                atPath: root.appendingPathComponent("mappings").path)
            #expect(files == ["\(id).json"])
        }
    }

    /// An edited stub is saved back into the file it came from (with the other stubs of that
    /// file), so the next start serves the edit, not the older version; ids that differ only in
    /// punctuation get files of their own.
    @Test func anEditedStubIsSavedIntoItsOwnFile() async throws {
        let root = try temporaryRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let original = root.appendingPathComponent("mappings/get-user.json")
        try Data(
            #"""
            {"mappings": [
              {"id": "abc", "request": {"url": "/user"}, "response": {"body": "old"}},
              {"id": "other", "request": {"url": "/other"}, "response": {"body": "other"}}
            ]}
            """#.utf8
        ).write(to: original)
        var configuration = MockServerConfiguration()
        configuration.mappingsDirectory = root
        try await withMockServer(configuration: configuration) { server in
            let edited = try perform(
                server, "PUT", "/__admin/mappings/abc",
                body: #"{"request": {"url": "/user"}, "response": {"body": "new"}}"#)
            #expect(edited.status == 200, "\(edited.text)")
            for id in ["get.user", "getuser"] {
                let created = try perform(
                    server, "POST", "/__admin/mappings",
                    body: #"{"id": "\#(id)", "request": {"url": "/\#(id)"}, "response": {"body": "\#(id)"}}"#)
                #expect(created.status == 201, "\(created.text)")
            }
            #expect(try perform(server, "POST", "/__admin/mappings/save").status == 200)
        }
        try await withMockServer(configuration: configuration) { server throws in
            #expect(server.stubCount == 4)
            #expect(try perform(server, "/user").text == "new")
            #expect(try perform(server, "/other").text == "other")
            #expect(try perform(server, "/get.user").text == "get.user")
            #expect(try perform(server, "/getuser").text == "getuser")
        }
        let files = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("mappings").path)
        #expect(files.sorted() == ["get%2Euser.json", "get-user.json", "getuser.json"].sorted(), "\(files)")
    }

    @Test func saveWithoutAFolderIsRefused() async throws {
        try await withMockServer { server in
            let refused = try perform(server, "POST", "/__admin/mappings/save")
            #expect(refused.status == 409)
            #expect(refused.text.contains("mappings folder"))
        }
    }

    @Test func findAndRemoveByMetadata() async throws {
        try await withMockServer { server in
            for (url, tag) in [("/a", "alpha"), ("/b", "beta"), ("/c", "alpha")] {
                _ = try perform(
                    server, "POST", "/__admin/mappings",
                    body:
                        #"{"request": {"url": "\#(url)"}, "response": {}, "metadata": {"tags": ["\#(tag)"], "n": 1}}"#
                )
            }
            _ = try perform(
                server, "POST", "/__admin/mappings", body: #"{"request": {"url": "/d"}, "response": {}}"#)
            let found = try perform(
                server, "POST", "/__admin/mappings/find-by-metadata",
                body: #"{"matchesJsonPath": {"expression": "$.tags[0]", "equalTo": "alpha"}}"#)
            #expect(found.status == 200, "\(found.text)")
            let urls = (json(found)["mappings"] as? [[String: Any]] ?? []).compactMap {
                ($0["request"] as? [String: Any])?["url"] as? String
            }
            #expect(urls.sorted() == ["/a", "/c"])
            let removed = try perform(
                server, "POST", "/__admin/mappings/remove-by-metadata",
                body: #"{"matchesJsonPath": {"expression": "$.tags[0]", "equalTo": "alpha"}}"#)
            #expect(removed.status == 200)
            #expect(server.stubCount == 2)
            let bad = try perform(
                server, "POST", "/__admin/mappings/find-by-metadata", body: #"{"equalTo": "x", "nope": 1}"#)
            #expect(bad.status == 422)
        }
    }

    /// Import is as strict as a single mapping: nothing of a document with an unknown key is installed.
    @Test func importRefusesUnknownKeysWithTheirPath() async throws {
        try await withMockServer { server in
            let refused = try perform(
                server, "POST", "/__admin/mappings/import",
                body:
                    #"{"mappings": [{"request": {"url": "/ok"}, "response": {}}, {"request": {"url": "/x"}, "response": {"bodyy": "x"}}]}"#
            )
            #expect(refused.status == 422)
            #expect(refused.text.contains("import mappings[1].response.bodyy"), "\(refused.text)")
            #expect(server.stubCount == 0)
        }
    }

    @Test func scenariosListAndReset() async throws {
        try await withMockServer { server in
            try server.addStubs(
                json: Data(
                    #"{"mappings": [{"scenarioName": "s", "requiredScenarioState": "Started", "newScenarioState": "done", "request": {"url": "/go"}, "response": {"body": "1"}}]}"#
                        .utf8))
            _ = try perform(server, "/go")
            let scenarios = json(try perform(server, "/__admin/scenarios"))["scenarios"] as? [[String: Any]]
            #expect(scenarios?.first?["state"] as? String == "done")
            #expect(try perform(server, "POST", "/__admin/scenarios/reset").status == 200)
            let after = json(try perform(server, "/__admin/scenarios"))["scenarios"] as? [[String: Any]]
            #expect(after?.first?["state"] as? String == "Started")
        }
    }

    @Test func globalFixedDelaySetting() async throws {
        try await withMockServer { server in
            try server.addStubs(json: Data(#"{"request": {"url": "/slow"}, "response": {"body": "s"}}"#.utf8))
            let set = try perform(server, "POST", "/__admin/settings", body: #"{"fixedDelay": 3000}"#)
            #expect(set.status == 200, "\(set.text)")
            let settings = json(try perform(server, "/__admin/settings"))["settings"] as? [String: Any]
            #expect(settings?["fixedDelay"] as? Int == 3000)
            let clock = ContinuousClock()
            let start = clock.now
            #expect(try perform(server, "/slow").text == "s")
            #expect(clock.now - start >= .seconds(3))
            let refused = try perform(
                server, "POST", "/__admin/settings", body: #"{"fixedDelay": 1, "extended": {}}"#)
            #expect(refused.status == 422)
            #expect(refused.text.contains("settings.extended"), "\(refused.text)")
            #expect(
                try perform(server, "POST", "/__admin/settings", body: #"{"fixedDelay": null}"#).status == 200
            )
            let fast = clock.now
            _ = try perform(server, "/slow")
            // Far below the 3 s delay, so a loaded machine cannot make it look delayed.
            #expect(clock.now - fast < .seconds(2))
        }
    }

    @Test func shutdownStopsTheServer() async throws {
        let server = MockServer()
        try server.start()
        let port = server.port
        let marker = UUID().uuidString
        try server.addStubs(
            json: Data(#"{"request": {"url": "/marker"}, "response": {"body": "\#(marker)"}}"#.utf8))
        #expect(try perform(server, "/marker").text == marker)
        let answer = try perform(server, "POST", "/__admin/shutdown")
        #expect(answer.status == 200)
        await server.waitUntilStopped()
        // The port is refused, or (tests run in parallel) another test's server has taken it since:
        // either way, this server no longer answers.
        let after = Result { () throws -> RawResponse in
            let client = try RawClient(port: port)
            try client.send("GET /marker HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            return try client.readResponse(isHead: false)
        }
        #expect((try? after.get().text) != marker)
    }
}
