import Foundation
import MockServer
import TestSupport
import Testing

/// WireMock 3's method names beyond the HTTP ones: `ANY` matches every method, `GET_OR_HEAD` a GET
/// and a HEAD (answered with the GET's headers, Content-Length included, and no body).
struct MethodMatchingTests {
    static let body = #"{"id": 1, "name": "Ada"}"#

    private func mapping(_ method: String) -> String {
        #"{"name": "user", "request": {"method": "\#(method)", "urlPath": "/users/1"}, "#
            + #""response": {"status": 200, "headers": {"Content-Type": "application/json", "X-Stub": "yes"}, "#
            + #""body": "\#(Self.body.replacingOccurrences(of: "\"", with: "\\\""))"}}"#
    }

    @Test func getOrHeadMatchesGetAndHead() async throws {
        try await withMockServer { server in
            let created = try perform(server, "POST", "/__admin/mappings", body: mapping("GET_OR_HEAD"))
            #expect(created.status == 201, "\(created.text)")

            let get = try perform(server, "GET", "/users/1")
            #expect(get.status == 200, "\(get.text)")
            #expect(get.text == Self.body)

            let head = try perform(server, "HEAD", "/users/1")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(Self.body.utf8.count))
            #expect(head.header("Content-Type") == "application/json")
            #expect(head.header("X-Stub") == "yes")

            for method in ["POST", "PUT", "DELETE", "OPTIONS"] {
                let other = try perform(server, method, "/users/1")
                #expect(other.status == 404, "\(method)")
                #expect(other.text.contains("expected GET_OR_HEAD but was \(method)"), "\(other.text)")
            }
        }
    }

    @Test(arguments: ["get_or_head", "GET_OR_HEAD"])
    func getOrHeadIsKeptInTheMappingAsWritten(method: String) async throws {
        try await withMockServer { server in
            let created = try perform(server, "POST", "/__admin/mappings", body: mapping(method))
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(json(created)["id"] as? String)
            let stored = json(try perform(server, "/__admin/mappings/\(id)"))
            #expect((stored["request"] as? [String: Any])?["method"] as? String == method)
            #expect(try perform(server, "HEAD", "/users/1").status == 200)
        }
    }

    @Test func anyMatchesEveryMethod() async throws {
        try await withMockServer { server in
            #expect(try perform(server, "POST", "/__admin/mappings", body: mapping("ANY")).status == 201)
            for method in ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] {
                let response = try perform(server, method, "/users/1")
                #expect(response.status == 200, "\(method): \(response.text)")
                #expect(response.text == Self.body, "\(method)")
            }
            let head = try perform(server, "HEAD", "/users/1")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == String(Self.body.utf8.count))
        }
    }

    /// A method that is not a token (RFC 9110 §9.1) could never arrive: refused, not kept as a stub
    /// that matches nothing.
    @Test(arguments: ["GET OR HEAD", "", "GET\r\n"])
    func aMethodThatIsNotATokenIsRefused(method: String) async throws {
        try await withMockServer { server in
            let escaped = method.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(
                of: "\n", with: "\\n")
            let refused = try perform(server, "POST", "/__admin/mappings", body: mapping(escaped))
            #expect(refused.status == 422, "\(refused.text)")
            #expect(refused.text.contains("mapping.request.method"), "\(refused.text)")
        }
    }
}
