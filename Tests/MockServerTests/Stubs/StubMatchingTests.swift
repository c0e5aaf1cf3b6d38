import Foundation
import MockServer
import TestSupport
import Testing

struct StubMatchingTests {
    /// A request-matching example: one mapping, a request it must match and one it must not.
    struct Case: Sendable, CustomTestStringConvertible {
        struct Request: Sendable {
            var method = "GET"
            var target: String
            var headers: [(String, String)] = []
            var body = ""
        }

        var name: String
        var request: String
        var matching: Request
        var notMatching: Request
        var testDescription: String { name }
    }

    static let multipartBody =
        "--XyZ\r\nContent-Disposition: form-data; name=\"info\"\r\nContent-Type: application/json\r\n\r\n{\"a\":1}\r\n"
        + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\nfile text\r\n--XyZ--\r\n"
    static let multipartHeaders = [("Content-Type", "multipart/form-data; boundary=XyZ")]

    static let cases: [Case] = [
        Case(
            name: "method", request: #"{"method": "POST", "url": "/m"}"#,
            matching: .init(method: "POST", target: "/m"), notMatching: .init(target: "/m")),
        Case(
            name: "method ANY", request: #"{"method": "ANY", "url": "/any"}"#,
            matching: .init(method: "DELETE", target: "/any"), notMatching: .init(target: "/other")),
        Case(
            name: "url includes the query", request: #"{"url": "/u?a=1"}"#,
            matching: .init(target: "/u?a=1"), notMatching: .init(target: "/u?a=2")),
        Case(
            name: "urlPath ignores the query", request: #"{"urlPath": "/p"}"#,
            matching: .init(target: "/p?x=y"), notMatching: .init(target: "/p/q")),
        Case(
            name: "urlPattern", request: #"{"urlPattern": "/items/[0-9]+\\?.*"}"#,
            matching: .init(target: "/items/42?x=1"), notMatching: .init(target: "/items/abc?x=1")),
        Case(
            name: "urlPathPattern", request: #"{"urlPathPattern": "/users/[a-z]+"}"#,
            matching: .init(target: "/users/bob?full=1"), notMatching: .init(target: "/users/B0b")),
        Case(
            name: "urlPathTemplate", request: #"{"urlPathTemplate": "/contacts/{id}/notes"}"#,
            matching: .init(target: "/contacts/9/notes"), notMatching: .init(target: "/contacts/9/other")),
        Case(
            name: "query equalTo",
            request: #"{"urlPath": "/q", "queryParameters": {"page": {"equalTo": "2"}}}"#,
            matching: .init(target: "/q?page=2"), notMatching: .init(target: "/q?page=3")),
        Case(
            name: "query absent",
            request: #"{"urlPath": "/qa", "queryParameters": {"debug": {"absent": true}}}"#,
            matching: .init(target: "/qa"), notMatching: .init(target: "/qa?debug=1")),
        Case(
            name: "header contains", request: #"{"url": "/h", "headers": {"Accept": {"contains": "json"}}}"#,
            matching: .init(target: "/h", headers: [("Accept", "application/json")]),
            notMatching: .init(target: "/h", headers: [("Accept", "text/xml")])),
        Case(
            name: "header equalTo caseInsensitive",
            request: #"{"url": "/hc", "headers": {"X-Mode": {"equalTo": "FAST", "caseInsensitive": true}}}"#,
            matching: .init(target: "/hc", headers: [("x-mode", "fast")]),
            notMatching: .init(target: "/hc", headers: [("X-Mode", "slow")])),
        Case(
            name: "header matches",
            request: #"{"url": "/hm", "headers": {"Authorization": {"matches": "Bearer [a-z0-9]+"}}}"#,
            matching: .init(target: "/hm", headers: [("Authorization", "Bearer abc123")]),
            notMatching: .init(target: "/hm")),
        Case(
            name: "header doesNotMatch",
            request: #"{"url": "/hd", "headers": {"X-Env": {"doesNotMatch": "prod.*"}}}"#,
            matching: .init(target: "/hd", headers: [("X-Env", "staging")]),
            notMatching: .init(target: "/hd", headers: [("X-Env", "production")])),
        Case(
            name: "cookie", request: #"{"url": "/c", "cookies": {"session": {"matches": ".*12345.*"}}}"#,
            matching: .init(target: "/c", headers: [("Cookie", "theme=dark; session=ab12345cd")]),
            notMatching: .init(target: "/c", headers: [("Cookie", "session=999")])),
        Case(
            name: "body equalTo", request: #"{"url": "/b", "bodyPatterns": [{"equalTo": "exact"}]}"#,
            matching: .init(method: "POST", target: "/b", body: "exact"),
            notMatching: .init(method: "POST", target: "/b", body: "exactly")),
        Case(
            name: "body contains", request: #"{"url": "/bc", "bodyPatterns": [{"contains": "needle"}]}"#,
            matching: .init(method: "POST", target: "/bc", body: "hay needle hay"),
            notMatching: .init(method: "POST", target: "/bc", body: "hay")),
        Case(
            name: "body doesNotContain",
            request: #"{"url": "/bn", "bodyPatterns": [{"doesNotContain": "secret"}]}"#,
            matching: .init(method: "POST", target: "/bn", body: "public"),
            notMatching: .init(method: "POST", target: "/bn", body: "a secret")),
        Case(
            name: "equalToJson strict",
            request: #"{"url": "/j", "bodyPatterns": [{"equalToJson": {"a": 1, "b": [1, 2]}}]}"#,
            matching: .init(method: "POST", target: "/j", body: #"{ "b": [1, 2.0], "a": 1 }"#),
            notMatching: .init(method: "POST", target: "/j", body: #"{"a": 1, "b": [2, 1]}"#)),
        Case(
            name: "equalToJson ignoreArrayOrder",
            request:
                #"{"url": "/jo", "bodyPatterns": [{"equalToJson": "[1, 2, 3]", "ignoreArrayOrder": true}]}"#,
            matching: .init(method: "POST", target: "/jo", body: "[3, 1, 2]"),
            notMatching: .init(method: "POST", target: "/jo", body: "[3, 1, 1]")),
        Case(
            name: "equalToJson ignoreExtraElements",
            request:
                #"{"url": "/je", "bodyPatterns": [{"equalToJson": {"a": {"b": 1}}, "ignoreExtraElements": true}]}"#,
            matching: .init(method: "POST", target: "/je", body: #"{"a": {"b": 1, "c": 2}, "d": 3}"#),
            notMatching: .init(method: "POST", target: "/je", body: #"{"a": {"c": 2}}"#)),
        Case(
            name: "equalToJson placeholder",
            request:
                #"{"url": "/jp", "bodyPatterns": [{"equalToJson": {"id": "${json-unit.any-number}", "n": "x"}}]}"#,
            matching: .init(method: "POST", target: "/jp", body: #"{"id": 7, "n": "x"}"#),
            notMatching: .init(method: "POST", target: "/jp", body: #"{"id": "7", "n": "x"}"#)),
        Case(
            name: "matchesJsonPath presence",
            request: #"{"url": "/jp1", "bodyPatterns": [{"matchesJsonPath": "$.user.name"}]}"#,
            matching: .init(method: "POST", target: "/jp1", body: #"{"user": {"name": "ann"}}"#),
            notMatching: .init(method: "POST", target: "/jp1", body: #"{"user": {}}"#)),
        Case(
            name: "matchesJsonPath filter",
            request:
                #"{"url": "/jp2", "bodyPatterns": [{"matchesJsonPath": "$.things[?(@.name == 'Required' && @.n > 2)]"}]}"#,
            matching: .init(
                method: "POST", target: "/jp2",
                body: #"{"things": [{"name": "x"}, {"name": "Required", "n": 3}]}"#),
            notMatching: .init(
                method: "POST", target: "/jp2", body: #"{"things": [{"name": "Required", "n": 1}]}"#)),
        Case(
            name: "matchesJsonPath with a sub-matcher",
            request:
                #"{"url": "/jp3", "bodyPatterns": [{"matchesJsonPath": {"expression": "$..sku", "contains": "AB-"}}]}"#,
            matching: .init(method: "POST", target: "/jp3", body: #"{"items": [{"sku": "AB-1"}]}"#),
            notMatching: .init(method: "POST", target: "/jp3", body: #"{"items": [{"sku": "ZZ-1"}]}"#)),
        Case(
            name: "matchesJsonPath index and length",
            request:
                #"{"url": "/jp4", "bodyPatterns": [{"matchesJsonPath": {"expression": "$.list.length()", "equalTo": "2"}}]}"#,
            matching: .init(method: "POST", target: "/jp4", body: #"{"list": [1, 2]}"#),
            notMatching: .init(method: "POST", target: "/jp4", body: #"{"list": [1]}"#)),
        Case(
            name: "multipart ANY",
            request:
                #"{"url": "/mp", "multipartPatterns": [{"headers": {"Content-Disposition": {"contains": "name=\"file\""}}, "bodyPatterns": [{"equalTo": "file text"}]}]}"#,
            matching: .init(method: "POST", target: "/mp", headers: multipartHeaders, body: multipartBody),
            notMatching: .init(method: "POST", target: "/mp", body: "not multipart")),
        Case(
            name: "multipart ALL",
            request:
                #"{"url": "/mpa", "multipartPatterns": [{"matchingType": "ALL", "headers": {"Content-Disposition": {"contains": "form-data"}}}]}"#,
            matching: .init(method: "POST", target: "/mpa", headers: multipartHeaders, body: multipartBody),
            notMatching: .init(
                method: "POST", target: "/mpa", headers: multipartHeaders,
                body: "--XyZ\r\nContent-Disposition: attachment\r\n\r\nx\r\n--XyZ--\r\n")),
        Case(
            name: "basic auth",
            request: #"{"url": "/ba", "basicAuthCredentials": {"username": "jeff", "password": "pw"}}"#,
            matching: .init(target: "/ba", headers: [("Authorization", "Basic amVmZjpwdw==")]),
            notMatching: .init(target: "/ba", headers: [("Authorization", "Basic bm9wZTpwdw==")])),
        Case(
            name: "and / or",
            request:
                #"{"url": "/ao", "headers": {"X-A": {"or": [{"equalTo": "1"}, {"and": [{"contains": "b"}, {"contains": "c"}]}]}}}"#,
            matching: .init(target: "/ao", headers: [("X-A", "abc")]),
            notMatching: .init(target: "/ao", headers: [("X-A", "ab")])),
    ]

    @Test(arguments: cases)
    func matcher(_ example: Case) async throws {
        try await withMockServer { server in
            let mapping = #"{"request": \#(example.request), "response": {"status": 200, "body": "stubbed"}}"#
            try server.addStubs(json: Data(mapping.utf8))
            let hit = try perform(
                server, example.matching.method, example.matching.target, headers: example.matching.headers,
                body: example.matching.body)
            #expect(hit.status == 200, "\(hit.text)")
            #expect(hit.text == "stubbed")
            let miss = try perform(
                server, example.notMatching.method, example.notMatching.target,
                headers: example.notMatching.headers,
                body: example.notMatching.body)
            #expect(miss.status == 404)
        }
    }

    /// A stub that fits the URL and method is a better explanation than one that fits only the body.
    @Test(arguments: [false, true])
    func notFoundNamesTheStubWithTheSameURLAndMethod(_ notesFirst: Bool) async throws {
        try await withMockServer { server in
            let notes = #"""
                {"name": "notes", "request": {"method": "POST", "url": "/notes",
                 "bodyPatterns": [{"equalToJson": {"title": "a", "done": false}}]}, "response": {"status": 201}}
                """#
            let other = #"{"name": "other", "request": {"method": "POST", "url": "/other"}, "response": {}}"#
            for mapping in notesFirst ? [notes, other] : [other, notes] {
                try server.addStubs(json: Data(mapping.utf8))
            }
            let miss = try perform(server, "POST", "/notes", body: #"{"title": "b", "done": false}"#)
            #expect(miss.status == 404)
            #expect(miss.text.contains(#"Closest stub: "notes" (POST /notes)"#), "\(miss.text)")
            #expect(!miss.text.contains("/other"), "\(miss.text)")
            #expect(miss.text.contains(#"$.title: expected "a" but was "b""#), "\(miss.text)")
            #expect(!miss.text.contains("$.done"), "\(miss.text)")
        }
    }

    @Test func invalidMappingsAreRejectedWithAReason() async throws {
        try await withMockServer { server in
            #expect(throws: MockServerError.self) {
                try server.addStubs(json: Data("{\"response\": {}}".utf8))
            }
            do {
                try server.addStubs(
                    json: Data(#"{"request": {"url": "/x", "headers": {"A": {"looksLike": "b"}}}}"#.utf8))
                Issue.record("an unknown matcher was accepted")
            } catch let error as MockServerError {
                #expect(error.message.contains("unknown matcher"))
            }
            #expect(server.stubCount == 0)
        }
    }
}
