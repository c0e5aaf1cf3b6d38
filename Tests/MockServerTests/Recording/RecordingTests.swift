import Foundation
import MockServer
import TestSupport
import Testing

/// Record and playback: `/__admin/recordings/*` against a second in-process server as the upstream.
struct RecordingTests {
    static let upstreamStubs = #"""
        {"mappings": [
          {"request": {"method": "GET", "urlPath": "/api/a"},
           "response": {"status": 200, "headers": {"Content-Type": "application/json", "X-Up": "a"}, "jsonBody": {"a": 1}}},
          {"request": {"method": "GET", "urlPath": "/api/b"},
           "response": {"status": 202, "headers": {"Content-Type": "text/plain"}, "body": "bee"}},
          {"request": {"method": "POST", "urlPath": "/api/c", "bodyPatterns": [{"equalToJson": {"n": 3}}]},
           "response": {"status": 201, "body": "created"}},
          {"request": {"method": "GET", "urlPath": "/skip/me"}, "response": {"body": "skipped"}}
        ]}
        """#

    private func temporaryRoot() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        return root
    }

    private func status(_ server: MockServer) throws -> String? {
        json(try perform(server, "/__admin/recordings/status"))["status"] as? String
    }

    @Test func recordStopAndPlayBackWithoutTheUpstream() async throws {
        let root = try temporaryRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        var configuration = MockServerConfiguration()
        configuration.mappingsDirectory = root
        try await withMockServer(configuration: configuration) { server in
            #expect(try status(server) == "NeverStarted")
            let upstream = MockServer()
            try upstream.start()
            try upstream.addStubs(json: Data(Self.upstreamStubs.utf8))
            let started = try perform(
                server, "POST", "/__admin/recordings/start",
                body:
                    #"{"targetBaseUrl": "\#(upstream.baseURL.absoluteString)", "filters": {"urlPathPattern": "/api/.*"}}"#
            )
            #expect(started.status == 200, "\(started.text)")
            #expect(try status(server) == "Recording")
            #expect(try perform(server, "/api/a").text == #"{"a":1}"#)
            #expect(try perform(server, "/api/b?x=1").status == 202)
            #expect(try perform(server, "POST", "/api/c", body: #"{"n": 3}"#).status == 201)
            #expect(try perform(server, "/skip/me").text == "skipped")
            let stopped = try perform(server, "POST", "/__admin/recordings/stop")
            #expect(stopped.status == 200, "\(stopped.text)")
            #expect(try status(server) == "Stopped")
            let mappings = json(stopped)["mappings"] as? [[String: Any]] ?? []
            #expect(mappings.count == 3)
            await upstream.stop()

            // Played back without the upstream.
            let a = try perform(server, "/api/a")
            #expect(a.text == #"{"a":1}"#)
            #expect(a.header("X-Up") == "a")
            #expect(a.header("Content-Type") == "application/json")
            #expect(a.headers.filter { $0.0.lowercased() == "date" }.count == 1)
            #expect(try perform(server, "/api/b?x=1").text == "bee")
            #expect(try perform(server, "POST", "/api/c", body: #"{"n":3}"#).text == "created")
            #expect(try perform(server, "/api/b?x=2").status == 404)
            #expect(try perform(server, "/skip/me").status == 404)
        }
        // Persisted: mapping files and body files, served by a fresh server.
        let mappingFiles = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("mappings").path)
        let bodyFiles = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("__files").path)
        #expect(mappingFiles.count == 3)
        #expect(bodyFiles.count == 3)
        try await withMockServer(configuration: configuration) { (server) async throws in
            #expect(server.stubCount == 3)
            #expect(try perform(server, "/api/b?x=1").text == "bee")
        }
    }

    @Test func repeatedRequestsBecomeScenarioSteps() async throws {
        try await withMockServer { upstream in
            try upstream.addStubs(
                json: Data(
                    #"""
                    {"mappings": [
                      {"scenarioName": "c", "requiredScenarioState": "Started", "newScenarioState": "two",
                       "request": {"urlPath": "/count"}, "response": {"body": "1"}},
                      {"scenarioName": "c", "requiredScenarioState": "two", "newScenarioState": "three",
                       "request": {"urlPath": "/count"}, "response": {"body": "2"}},
                      {"scenarioName": "c", "requiredScenarioState": "three",
                       "request": {"urlPath": "/count"}, "response": {"body": "3"}}
                    ]}
                    """#.utf8))
            try await withMockServer { server in
                _ = try perform(
                    server, "POST", "/__admin/recordings/start",
                    body: #"{"targetBaseUrl": "\#(upstream.baseURL.absoluteString)", "persist": false}"#)
                #expect(try (1...3).map { _ in try perform(server, "/count").text } == ["1", "2", "3"])
                let stopped = try perform(server, "POST", "/__admin/recordings/stop")
                let mappings = json(stopped)["mappings"] as? [[String: Any]] ?? []
                #expect(mappings.count == 3)
                #expect(Set(mappings.compactMap { $0["scenarioName"] as? String }).count == 1)
                #expect(try (1...4).map { _ in try perform(server, "/count").text } == ["1", "2", "3", "3"])
            }
        }
    }

    @Test func snapshotTurnsProxiedRequestsIntoStubs() async throws {
        try await withMockServer { server in
            let upstream = MockServer()
            try upstream.start()
            try upstream.addStubs(json: Data(Self.upstreamStubs.utf8))
            try server.addStubs(
                json: Data(
                    #"{"request": {"urlPathPattern": "/api/.*"}, "response": {"proxyBaseUrl": "\#(upstream.baseURL.absoluteString)"}}"#
                        .utf8))
            #expect(try perform(server, "/api/b").text == "bee")
            let snapshot = try perform(
                server, "POST", "/__admin/recordings/snapshot",
                body: #"{"persist": false, "outputFormat": "IDS"}"#)
            #expect(snapshot.status == 200, "\(snapshot.text)")
            #expect((json(snapshot)["ids"] as? [String])?.count == 1)
            await upstream.stop()
            #expect(try perform(server, "/api/b").text == "bee")
        }
    }

    @Test func badSpecsAndStatesAreRefused() async throws {
        try await withMockServer { server in
            let unknown = try perform(
                server, "POST", "/__admin/recordings/start",
                body: #"{"targetBaseUrl": "http://127.0.0.1:1", "nope": 1}"#)
            #expect(unknown.status == 422)
            #expect(unknown.text.contains("recordSpec.nope"), "\(unknown.text)")
            let missing = try perform(server, "POST", "/__admin/recordings/start", body: #"{}"#)
            #expect(missing.status == 422)
            #expect(missing.text.contains("targetBaseUrl"))
            #expect(try perform(server, "POST", "/__admin/recordings/stop").status == 409)
            #expect(
                try perform(
                    server, "POST", "/__admin/recordings/start",
                    body: #"{"targetBaseUrl": "http://127.0.0.1:1"}"#
                )
                .status == 200)
            #expect(
                try perform(
                    server, "POST", "/__admin/recordings/start",
                    body: #"{"targetBaseUrl": "http://127.0.0.1:1"}"#
                )
                .status == 409)
        }
    }
}
