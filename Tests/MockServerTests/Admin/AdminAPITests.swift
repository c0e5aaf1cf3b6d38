import Foundation
import MockServer
import TestSupport
import Testing

struct AdminAPITests {
    static let mapping =
        #"{"name": "ping", "request": {"method": "GET", "url": "/ping"}, "response": {"body": "pong"}}"#

    @Test func createListGetUpdateDeleteMappings() async throws {
        try await withMockServer { server in
            let created = try perform(server, "POST", "/__admin/mappings", body: Self.mapping)
            #expect(created.status == 201)
            let id = try #require(json(created)["id"] as? String)
            #expect(try perform(server, "/ping").text == "pong")

            let list = json(try perform(server, "/__admin/mappings"))
            #expect((list["meta"] as? [String: Any])?["total"] as? Int == 1)
            #expect(((list["mappings"] as? [[String: Any]])?.first?["id"] as? String) == id)

            let one = try perform(server, "/__admin/mappings/\(id)")
            #expect(json(one)["name"] as? String == "ping")

            let updated = try perform(
                server, "PUT", "/__admin/mappings/\(id)",
                body: #"{"request": {"method": "GET", "url": "/ping"}, "response": {"body": "PONG"}}"#)
            #expect(updated.status == 200)
            #expect(try perform(server, "/ping").text == "PONG")
            #expect(server.stubCount == 1)

            #expect(try perform(server, "DELETE", "/__admin/mappings/\(id)").status == 200)
            #expect(try perform(server, "/ping").status == 404)
            #expect(try perform(server, "/__admin/mappings/\(id)").status == 404)
            #expect(try perform(server, "DELETE", "/__admin/mappings/\(id)").status == 404)
        }
    }

    @Test func invalidMappingGets422AndBadJSONGets400() async throws {
        try await withMockServer { server in
            let invalid = try perform(server, "POST", "/__admin/mappings", body: #"{"request": {"url": 5}}"#)
            #expect(invalid.status == 422)
            #expect(invalid.text.contains("url must be a string"))
            #expect(try perform(server, "POST", "/__admin/mappings", body: "{nope").status == 400)
            #expect(try perform(server, "/__admin/nothing-here").status == 404)
        }
    }

    /// Keys the server does not implement are refused with where they are, never silently ignored.
    @Test(arguments: [
        (
            #"{"request": {"url": "/t"}, "response": {"body": "{{request.path}}", "transformers": ["body-transformer"]}}"#,
            "mapping.response.transformers[0]"
        ),
        (#"{"request": {"url": "/t", "methd": "GET"}, "response": {}}"#, "mapping.request.methd"),
        (#"{"request": {"url": "/t"}, "response": {"bodyy": "x"}}"#, "mapping.response.bodyy"),
        (#"{"request": {"url": "/t"}, "response": {}, "postServeActions": []}"#, "mapping.postServeActions"),
        (
            #"{"request": {"url": "/t", "headers": {"A": {"equalTo": "b", "contains": "c"}}}, "response": {}}"#,
            "mapping.request.headers.A.contains"
        ),
    ])
    func unimplementedKeysGet422NamingTheKey(_ mapping: String, _ path: String) async throws {
        try await withMockServer { server in
            let refused = try perform(server, "POST", "/__admin/mappings", body: mapping)
            #expect(refused.status == 422, "\(refused.text)")
            #expect(refused.text.contains(path), "\(refused.text)")
            #expect(server.stubCount == 0)
        }
    }

    @Test func deleteAllAndImport() async throws {
        try await withMockServer { server in
            _ = try perform(server, "POST", "/__admin/mappings", body: Self.mapping)
            #expect(try perform(server, "DELETE", "/__admin/mappings").status == 200)
            #expect(server.stubCount == 0)
            let imported = try perform(
                server, "POST", "/__admin/mappings/import",
                body:
                    #"{"mappings": [\#(Self.mapping), {"request": {"url": "/b"}, "response": {"status": 204}}]}"#
            )
            #expect(imported.status == 200)
            #expect(server.stubCount == 2)
            #expect(try perform(server, "/b").status == 204)
        }
    }

    @Test func resetReturnsToFileMappingsAndClearsJournal() async throws {
        var configuration = MockServerConfiguration()
        configuration.mappingsDirectory = Fixtures.wiremock
        try await withMockServer(configuration: configuration) { server in
            _ = try perform(server, "POST", "/__admin/mappings", body: Self.mapping)
            _ = try perform(server, "DELETE", "/__admin/mappings/8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7")
            #expect(server.stubCount == 3)
            _ = try perform(server, "/ping")
            #expect(try perform(server, "POST", "/__admin/reset").status == 200)
            #expect(server.stubCount == 3)
            #expect(try perform(server, "/ping").status == 404)
            let count = json(
                try perform(server, "POST", "/__admin/requests/count", body: #"{"url": "/ping"}"#))
            #expect(count["count"] as? Int == 1)
        }
    }

    @Test func journalRoutes() async throws {
        try await withMockServer { server in
            _ = try perform(server, "POST", "/__admin/mappings", body: Self.mapping)
            _ = try perform(server, "/ping")
            _ = try perform(server, "/ping")
            _ = try perform(server, "POST", "/unknown", headers: [("X-Trace", "t1")], body: "payload")

            let all = json(try perform(server, "/__admin/requests"))
            let events = all["requests"] as? [[String: Any]] ?? []
            #expect(events.count == 3)
            #expect((all["meta"] as? [String: Any])?["total"] as? Int == 3)
            let newest = events.first?["request"] as? [String: Any]
            #expect(newest?["url"] as? String == "/unknown")
            #expect(newest?["body"] as? String == "payload")
            #expect((newest?["headers"] as? [String: Any])?["X-Trace"] as? String == "t1")
            #expect(events.first?["wasMatched"] as? Bool == false)
            #expect((events.last?["stubMapping"] as? [String: Any])?["name"] as? String == "ping")

            let count = json(
                try perform(
                    server, "POST", "/__admin/requests/count", body: #"{"method": "GET", "url": "/ping"}"#))
            #expect(count["count"] as? Int == 2)
            let found = json(
                try perform(
                    server, "POST", "/__admin/requests/find",
                    body: #"{"method": "POST", "bodyPatterns": [{"contains": "pay"}]}"#))
            #expect((found["requests"] as? [[String: Any]])?.count == 1)
            let unmatched = json(try perform(server, "/__admin/requests/unmatched"))
            #expect(((unmatched["requests"] as? [[String: Any]])?.first?["url"] as? String) == "/unknown")

            #expect(try perform(server, "DELETE", "/__admin/requests").status == 200)
            #expect((json(try perform(server, "/__admin/requests"))["requests"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func journalIsBoundedAndReportsDrops() async throws {
        var configuration = MockServerConfiguration()
        configuration.journalLimit = 3
        try await withMockServer(configuration: configuration) { server in
            for index in 0..<5 { _ = try perform(server, "/r\(index)") }
            let all = json(try perform(server, "/__admin/requests"))
            let urls = (all["requests"] as? [[String: Any]])?.compactMap {
                ($0["request"] as? [String: Any])?["url"] as? String
            }
            #expect(urls == ["/r4", "/r3", "/r2"])
            #expect((all["meta"] as? [String: Any])?["dropped"] as? Int == 2)
            #expect(all["droppedRequests"] as? Int == 2)
        }
    }
}

extension AdminAPITests {
    @Test func journalKeepsAtMostAQuarterMebibytePerBody() async throws {
        try await withMockServer { server in
            let big = String(repeating: "b", count: 300 * 1024)
            _ = try perform(server, "POST", "/upload", body: big)
            _ = try perform(server, "POST", "/upload", body: "small")
            let events = json(try perform(server, "/__admin/requests"))["requests"] as? [[String: Any]] ?? []
            let requests = events.compactMap { $0["request"] as? [String: Any] }
            #expect(requests.count == 2)
            #expect((requests.last?["body"] as? String)?.utf8.count == 256 * 1024)
            #expect(requests.last?["bodyTruncated"] as? Bool == true)
            #expect(requests.first?["body"] as? String == "small")
            #expect(requests.first?["bodyTruncated"] == nil)
        }
    }
}

struct ChaosTests {
    private func outcomes(seed: UInt64, rate: Double, count: Int) async throws -> [String] {
        var configuration = MockServerConfiguration()
        configuration.chaosRate = rate
        configuration.chaosSeed = seed
        let handler = ClosureHandler { _ in .text("fine", status: 200) }
        return try await withMockServer(configuration: configuration, handlers: [handler]) { server in
            var seen: [String] = []
            for _ in 0..<count {
                do {
                    let response = try perform(server, "/work")
                    seen.append(
                        "\(response.status) \(response.header("X-Courier-Chaos") ?? "-") \(response.header("Retry-After") ?? "-")"
                    )
                } catch {
                    seen.append("fault")
                }
            }
            // Admin routes are never touched.
            for _ in 0..<10 {
                seen.append(try perform(server, "/__admin/mappings").status == 200 ? "" : "admin hit")
            }
            seen.removeAll { $0.isEmpty }
            return seen
        }
    }

    @Test func sameSeedSameChaos() async throws {
        let first = try await outcomes(seed: 42, rate: 0.5, count: 40)
        let second = try await outcomes(seed: 42, rate: 0.5, count: 40)
        #expect(first == second)
        #expect(first.contains("200 - -"))
        #expect(first.contains { $0 != "200 - -" })
    }

    @Test func fullRateAlwaysInjectsAndRetryAfterAccompanies429And503() async throws {
        let seen = try await outcomes(seed: 7, rate: 1, count: 40)
        #expect(!seen.contains("200 - -"))
        #expect(!seen.contains("admin hit"))
        let throttled = seen.filter { $0.hasPrefix("429") || $0.hasPrefix("503") }
        #expect(!throttled.isEmpty, "40 faults at full rate include a 429 or a 503: \(seen)")
        for line in throttled {
            #expect(line.hasSuffix(" 1"))
        }
    }

    @Test func zeroRateNeverInjects() async throws {
        let seen = try await outcomes(seed: 7, rate: 0, count: 20)
        #expect(Set(seen) == ["200 - -"])
    }
}
