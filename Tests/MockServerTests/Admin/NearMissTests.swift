import Foundation
import MockServer
import TestSupport
import Testing

/// `/__admin/near-misses/*` and `/__admin/requests/unmatched/near-misses`, in WireMock's JSON shape.
struct NearMissTests {
    static let stubs = #"""
        {"mappings": [
          {"name": "get-user", "request": {"method": "GET", "urlPath": "/users/1"}, "response": {"status": 200}},
          {"name": "create-user", "request": {"method": "POST", "urlPath": "/users",
             "headers": {"Content-Type": {"contains": "json"}}}, "response": {"status": 201}},
          {"name": "orders", "request": {"method": "GET", "urlPath": "/orders"}, "response": {"status": 200}},
          {"name": "health", "request": {"method": "GET", "urlPath": "/health"}, "response": {"status": 200}}
        ]}
        """#

    private func nearMisses(_ response: RawResponse) -> [[String: Any]] {
        json(response)["nearMisses"] as? [[String: Any]] ?? []
    }

    private func distance(_ miss: [String: Any]) -> Double? {
        (miss["matchResult"] as? [String: Any])?["distance"] as? Double
    }

    @Test func nearMissesForALoggedRequest() async throws {
        try await withMockServer { server in
            try server.addStubs(json: Data(Self.stubs.utf8))
            let response = try perform(
                server, "POST", "/__admin/near-misses/request",
                body:
                    #"{"url": "/users", "method": "POST", "headers": {"Content-Type": "text/plain"}, "body": "x"}"#
            )
            #expect(response.status == 200, "\(response.text)")
            let misses = nearMisses(response)
            #expect(misses.count == 3)
            let first = try #require(misses.first)
            #expect((first["stubMapping"] as? [String: Any])?["name"] as? String == "create-user")
            #expect((first["request"] as? [String: Any])?["url"] as? String == "/users")
            #expect((first["request"] as? [String: Any])?["method"] as? String == "POST")
            let distances = misses.compactMap(distance)
            #expect(distances.count == 3)
            #expect(distances == distances.sorted())
            #expect(distances.allSatisfy { $0 > 0 && $0 <= 1 })
        }
    }

    @Test func nearMissesForARequestPatternSearchTheJournal() async throws {
        try await withMockServer { server in
            _ = try perform(server, "/users/2")
            _ = try perform(server, "POST", "/users", body: "{}")
            _ = try perform(server, "/something/else/entirely")
            let response = try perform(
                server, "POST", "/__admin/near-misses/request-pattern",
                body: #"{"method": "GET", "urlPath": "/users/1"}"#)
            #expect(response.status == 200, "\(response.text)")
            let misses = nearMisses(response)
            #expect(misses.count == 3)
            #expect((misses.first?["request"] as? [String: Any])?["url"] as? String == "/users/2")
            #expect((misses.first?["requestPattern"] as? [String: Any])?["urlPath"] as? String == "/users/1")
            let bad = try perform(
                server, "POST", "/__admin/near-misses/request-pattern", body: #"{"urlPth": "/x"}"#)
            #expect(bad.status == 422)
            #expect(bad.text.contains("urlPth"))
        }
    }

    @Test func unmatchedRequestsWithTheirNearMisses() async throws {
        try await withMockServer { server in
            try server.addStubs(json: Data(Self.stubs.utf8))
            #expect(try perform(server, "/users/1").status == 200)
            #expect(try perform(server, "/orderz").status == 404)
            let response = try perform(server, "/__admin/requests/unmatched/near-misses")
            #expect(response.status == 200, "\(response.text)")
            let misses = nearMisses(response)
            #expect(!misses.isEmpty)
            #expect(misses.allSatisfy { ($0["request"] as? [String: Any])?["url"] as? String == "/orderz" })
            #expect((misses.first?["stubMapping"] as? [String: Any])?["name"] as? String == "orders")
        }
    }

    /// The 404 names a stub loaded from a file by the file (and its name when it has one), not by the
    /// random id it was given.
    @Test(arguments: [
        ("/users/2", #"Closest stub: "Get user" in mappings/users.json (GET /users/1)"#),
        ("/orderz", "Closest stub: mappings/shop/orders.json (GET /orders)"),
        ("/healthz", "Closest stub: mappings/shop/several.json mappings[1] (GET /health)"),
    ])
    func theClosestStubIsNamedByItsFile(target: String, expected: String) async throws {
        let folder = try MappingFolder([
            "mappings/users.json":
                #"{"name": "Get user", "request": {"method": "GET", "urlPath": "/users/1"}, "response": {}}"#,
            "mappings/shop/orders.json":
                #"{"request": {"method": "GET", "urlPath": "/orders"}, "response": {}}"#,
            "mappings/shop/several.json": #"""
            {"mappings": [{"request": {"method": "POST", "urlPath": "/basket"}, "response": {}},
                          {"request": {"method": "GET", "urlPath": "/health"}, "response": {}}]}
            """#,
        ])
        defer { folder.remove() }
        try await withMockServer(configuration: folder.configuration) { server in
            let response = try perform(server, target)
            #expect(response.status == 404)
            #expect(response.text.contains(expected), "\(response.text)")
        }
    }
}
