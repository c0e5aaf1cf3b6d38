import CourierPrimitives
import Foundation
import TestSupport
import Testing

@testable import MockServer

/// Response templating end to end: a mapping with `transformers: ["response-template"]`, a real request,
/// the rendered response. Most cases are the examples of WireMock 3's response-templating documentation.
struct ResponseTemplatingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var template: String
        var target: String
        var method = "GET"
        var headers: [(String, String)] = []
        var body = ""
        var urlPathTemplate: String?
        var expected: String
        var testDescription: String { template }
    }

    static let cases: [Case] = [
        // The request model.
        Case(template: "{{request.path.[0]}}", target: "/templated", expected: "templated"),
        Case(template: "{{{request.url}}}", target: "/one/two?a=1", expected: "/one/two?a=1"),
        Case(template: "{{request.url}}", target: "/one/two?a=1", expected: "/one/two?a&#x3D;1"),
        Case(template: "{{request.path}}", target: "/one/two?a=1", expected: "/one/two"),
        Case(template: "{{request.path.[1]}}", target: "/one/two/three", expected: "two"),
        Case(template: "{{request.pathSegments.[2]}}", target: "/one/two/three", expected: "three"),
        Case(
            template: "{{request.path.contactId}} {{request.path.addressId}}",
            target: "/v1/contacts/12345/addresses/99876",
            urlPathTemplate: "/v1/contacts/{contactId}/addresses/{addressId}", expected: "12345 99876"),
        Case(template: "{{request.query.search}}", target: "/q?search=WireMock", expected: "WireMock"),
        Case(template: "{{request.query.search.[1]}}", target: "/q?search=a&search=b", expected: "b"),
        Case(
            template: "{{request.headers.X-Request-Id}}", target: "/h", headers: [("X-Request-Id", "abc-1")],
            expected: "abc-1"),
        Case(
            template: "{{request.headers.x-request-id}}", target: "/h", headers: [("X-Request-Id", "abc-1")],
            expected: "abc-1"),
        Case(
            template: "{{request.cookies.JSESSIONID}}", target: "/c",
            headers: [("Cookie", "a=1; JSESSIONID=s3")],
            expected: "s3"),
        Case(template: "{{request.method}}", target: "/m", method: "PUT", body: "x", expected: "PUT"),
        Case(
            template: "{{{request.body}}}", target: "/b", method: "POST", body: #"{"a":1}"#,
            expected: #"{"a":1}"#),
        // Handlebars escapes HTML in {{ }} and not in {{{ }}}.
        Case(template: "{{request.query.q}}", target: "/e?q=%3Ca%3E%26%22", expected: "&lt;a&gt;&amp;&quot;"),
        Case(template: "{{{request.query.q}}}", target: "/e?q=%3Ca%3E", expected: "<a>"),
        // jsonPath.
        Case(
            template: "{{jsonPath request.body '$.outer'}}", target: "/j", method: "POST",
            body: #"{"outer": "Stuff"}"#, expected: "Stuff"),
        Case(
            template: "{{{jsonPath request.body '$.outer'}}}", target: "/j", method: "POST",
            body: #"{"outer": {"inner": "Stuff"}}"#, expected: #"{"inner":"Stuff"}"#),
        Case(
            template: "{{jsonPath request.body '$.missing' default='none'}}", target: "/j", method: "POST",
            body: #"{"outer": 1}"#, expected: "none"),
        Case(
            template: "{{#each (jsonPath request.body '$.things') as |thing|}}[{{thing.id}}]{{/each}}",
            target: "/j",
            method: "POST", body: #"{"things": [{"id": 1}, {"id": 2}]}"#, expected: "[1][2]"),
        // Blocks.
        Case(
            template: "{{#if request.query.detail}}details{{else}}summary{{/if}}", target: "/i?detail=1",
            expected: "details"),
        Case(
            template: "{{#if request.query.detail}}details{{else}}summary{{/if}}", target: "/i",
            expected: "summary"),
        Case(
            template: "{{#unless request.query.detail}}no details{{/unless}}", target: "/i",
            expected: "no details"),
        Case(
            template: "{{#each request.query.things as |thing|}}thing: {{thing}};{{/each}}",
            target: "/e?things=1&things=2&things=3", expected: "thing: 1;thing: 2;thing: 3;"),
        Case(
            template:
                "{{#each request.query.things}}{{@index}}={{this}}{{#unless @last}},{{/unless}}{{/each}}",
            target: "/e?things=a&things=b", expected: "0=a,1=b"),
        Case(
            template:
                "{{#eq request.query.name 'Dan'}}Hi Dan{{else eq request.query.name 'Mark'}}Hi Mark{{else}}Who?{{/eq}}",
            target: "/w?name=Mark", expected: "Hi Mark"),
        Case(
            template: "{{#if (eq request.query.name 'Dan')}}yes{{else}}no{{/if}}", target: "/w?name=Dan",
            expected: "yes"),
        Case(
            template: "{{#if (gt request.query.n 10)}}big{{else}}small{{/if}}", target: "/n?n=12",
            expected: "big"),
        Case(template: "{{#if (lte request.query.n 10)}}le{{/if}}", target: "/n?n=10", expected: "le"),
        Case(
            template: "{{#if (neq request.method 'GET')}}write{{else}}read{{/if}}", target: "/n",
            expected: "read"),
        Case(
            template: "{{#contains 'abcde' 'abc'}}Found it{{/contains}}", target: "/c", expected: "Found it"),
        Case(
            template: "{{#if (contains request.headers.Accept 'json')}}json{{else}}other{{/if}}",
            target: "/c",
            headers: [("Accept", "application/json")], expected: "json"),
        Case(template: "{{#if (and true (not false))}}both{{/if}}", target: "/c", expected: "both"),
        // String helpers.
        Case(
            template: "{{upper request.query.s}} {{lower 'MiXeD'}}", target: "/s?s=abc", expected: "ABC mixed"
        ),
        Case(template: "[{{trim '  padded  '}}]", target: "/s", expected: "[padded]"),
        Case(
            template: "{{substring 'one two' 4}} {{substring 'one two' 0 3}}", target: "/s",
            expected: "two one"),
        Case(template: "{{capitalize 'hello world'}}", target: "/s", expected: "Hello World"),
        Case(
            template: "{{size request.query.a}} {{math 1 '+' 2}}", target: "/s?a=x&a=y&a=z", expected: "3 3"),
        Case(template: "{{replace 'a-b-c' '-' '+'}}", target: "/s", expected: "a+b+c"),
        Case(
            template: "{{{base64 'hello'}}} {{base64 'aGVsbG8=' decode=true}}", target: "/s",
            expected: "aGVsbG8= hello"),
        // Comments and whitespace control.
        Case(template: "a {{!-- a comment --}}b {{~! trimmed ~}}  c", target: "/s", expected: "a bc"),
        Case(template: #"literal \{{braces}}"#, target: "/s", expected: "literal {{braces}}"),
    ]

    @Test(arguments: cases)
    func rendersTheTemplate(_ testCase: Case) async throws {
        try await withMockServer { server in
            let url =
                testCase.urlPathTemplate.map { #""urlPathTemplate": "\#($0)""# }
                ?? #""urlPathPattern": "/.*""#
            let mapping: JSONValue = .object([
                "request": try JSONValue.parse(Data("{\(url)}".utf8)),
                "response": .object([
                    "body": .string(testCase.template),
                    "transformers": .array([.string("response-template")]),
                ]),
            ])
            try server.addStubs(json: mapping.serialized())
            let response = try perform(
                server, testCase.method, testCase.target, headers: testCase.headers, body: testCase.body)
            #expect(response.status == 200, "\(response.text)")
            #expect(response.text == testCase.expected)
        }
    }

    @Test func withoutTheTransformerTheBodyIsServedRaw() async throws {
        try await withMockServer { server in
            try server.addStubs(
                json: Data(
                    #"{"request": {"urlPath": "/raw"}, "response": {"body": "{{request.path}}"}}"#.utf8))
            #expect(try perform(server, "/raw").text == "{{request.path}}")
        }
    }

    @Test func globalTemplatingRendersEveryStub() async throws {
        var configuration = MockServerConfiguration()
        configuration.globalResponseTemplating = true
        try await withMockServer(configuration: configuration) { server in
            try server.addStubs(
                json: Data(
                    #"{"request": {"urlPath": "/g"}, "response": {"body": "{{request.query.x}}"}}"#.utf8))
            #expect(try perform(server, "/g?x=42").text == "42")
        }
    }

    @Test func headersStatusAndJsonBodyAreTemplated() async throws {
        let mapping = #"""
            {"request": {"urlPathPattern": "/items/.*"},
             "response": {"status": "{{request.query.code}}",
                          "headers": {"X-Echo": "{{request.headers.X-Id}}", "Location": "/items/{{request.path.[1]}}"},
                          "jsonBody": {"id": "{{request.path.[1]}}", "tags": ["{{upper request.query.tag}}", 7], "fixed": true},
                          "transformers": ["response-template"]}}
            """#
        try await withMockServer { server in
            try server.addStubs(json: Data(mapping.utf8))
            let response = try perform(server, "/items/77?code=201&tag=new", headers: [("X-Id", "req-9")])
            #expect(response.status == 201)
            #expect(response.header("X-Echo") == "req-9")
            #expect(response.header("Location") == "/items/77")
            #expect(response.header("Content-Type") == "application/json")
            let body = json(response)
            #expect(body["id"] as? String == "77")
            #expect(body["tags"] as? [AnyHashable] == ["NEW", 7])
            #expect(body["fixed"] as? Bool == true)
        }
    }

    @Test func bodyFileNameAndTheFileAreTemplated() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tpl-\(UUID().uuidString)")
        let files = folder.appendingPathComponent("__files")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("user {{request.path.[1]}} in {{request.query.lang}}".utf8).write(
            to: files.appendingPathComponent("user-7.txt"))
        try Data("raw {{request.path}}".utf8).write(to: files.appendingPathComponent("raw.txt"))
        // Bigger than a render may produce (16 MiB): refused before it is read (sparse, so cheap to make).
        let huge = files.appendingPathComponent("user-9.txt")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 17 << 20)
        try handle.close()
        try Data(
            #"""
            {"mappings": [
              {"request": {"urlPathPattern": "/users/.*"},
               "response": {"bodyFileName": "user-{{request.path.[1]}}.txt", "transformers": ["response-template"]}},
              {"request": {"urlPath": "/raw"},
               "response": {"bodyFileName": "raw.txt", "transformers": ["response-template"],
                            "transformerParameters": {"disableBodyFileTemplating": true}}},
              {"request": {"urlPath": "/param"},
               "response": {"body": "{{parameters.greeting}}", "transformers": ["response-template"],
                            "transformerParameters": {"greeting": "hi"}}}
            ]}
            """#.utf8
        ).write(to: folder.appendingPathComponent("mappings/all.json"))
        var configuration = MockServerConfiguration()
        configuration.mappingsDirectory = folder
        try await withMockServer(configuration: configuration) { server in
            #expect(try perform(server, "/users/7?lang=en").text == "user 7 in en")
            let missing = try perform(server, "/users/8")
            #expect(missing.status == 500)
            #expect(missing.text.contains("no body file user-8.txt"), "\(missing.text)")
            let tooBig = try perform(server, "/users/9")
            #expect(tooBig.status == 500)
            #expect(tooBig.text.contains("templated files are limited to 16777216"), "\(tooBig.text)")
            #expect(try perform(server, "/raw").text == "raw {{request.path}}")
            #expect(try perform(server, "/param").text == "hi")
        }
    }

    @Test func nowFormatsAndOffsets() async throws {
        try await withMockServer { server in
            try server.addStubs(
                json: Data(
                    #"{"request": {"urlPath": "/now"}, "response": {"body": "{{now format='epoch'}}|{{now offset='3 days' format='yyyy-MM-dd'}}|{{now format='unix' offset='-24 seconds'}}|{{now}}", "transformers": ["response-template"]}}"#
                        .utf8))
            let before = Date()
            let parts = try perform(server, "/now").text.split(separator: "|").map(String.init)
            let after = Date()
            try #require(parts.count == 4, "\(parts)")
            let epoch = try #require(Double(parts[0])) / 1000
            #expect(
                epoch >= before.timeIntervalSince1970.rounded(.down) - 0.001
                    && epoch <= after.timeIntervalSince1970)
            let threeDays = [before, after].map {
                TemplateHelpers.format(
                    $0.addingTimeInterval(3 * 86_400), "yyyy-MM-dd", TimeZone(identifier: "UTC")!)
            }
            #expect(threeDays.contains(parts[1]), "\(parts[1])")
            let unix = try #require(Double(parts[2]))
            #expect(
                unix >= before.timeIntervalSince1970.rounded(.down) - 25
                    && unix <= after.timeIntervalSince1970 - 23)
            #expect(parts[3].wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(parts[3])")
        }
    }

    @Test func randomValues() async throws {
        try await withMockServer { server in
            try server.addStubs(
                json: Data(
                    #"{"request": {"urlPath": "/r"}, "response": {"body": "{{randomValue length=33 type='ALPHANUMERIC'}}|{{randomValue length=8 type='NUMERIC'}}|{{randomValue type='UUID'}}|{{randomValue length=5 type='ALPHABETIC' uppercase=true}}|{{randomValue length=6 type='HEXADECIMAL'}}", "transformers": ["response-template"]}}"#
                        .utf8))
            let first = try perform(server, "/r").text.split(separator: "|").map(String.init)
            let second = try perform(server, "/r").text.split(separator: "|").map(String.init)
            try #require(first.count == 5, "\(first)")
            #expect(first[0].wholeMatch(of: /[A-Za-z0-9]{33}/) != nil)
            #expect(first[1].wholeMatch(of: /[0-9]{8}/) != nil)
            #expect(UUID(uuidString: first[2]) != nil)
            #expect(first[3].wholeMatch(of: /[A-Z]{5}/) != nil)
            #expect(first[4].wholeMatch(of: /[0-9a-f]{6}/) != nil)
            let secondAlphanumeric = try #require(second.first, "the second response was empty")
            #expect(first[0] != secondAlphanumeric)
        }
    }

    /// A template that cannot render is a 500 naming the error and where; one that cannot compile is refused
    /// when the mapping is added.
    @Test func failuresAreReportedNotServed() async throws {
        try await withMockServer { server in
            try server.addStubs(
                json: Data(
                    #"{"request": {"urlPath": "/bad"}, "response": {"body": "{{jsonPath request.body '$.a'}}", "transformers": ["response-template"]}}"#
                        .utf8))
            let failed = try perform(server, "POST", "/bad", body: "not json")
            #expect(failed.status == 500)
            #expect(failed.text.contains("response.body"), "\(failed.text)")
            #expect(failed.text.contains("jsonPath: the document is not valid JSON"), "\(failed.text)")

            try server.addStubs(
                json: Data(
                    #"{"request": {"urlPath": "/status"}, "response": {"status": "{{request.query.s}}", "transformers": ["response-template"]}}"#
                        .utf8))
            let status = try perform(server, "/status?s=abc")
            #expect(status.status == 500)
            #expect(status.text.contains("response.status"), "\(status.text)")

            for (template, message) in [
                ("{{#if x}}open", "{{#if}} is not closed"),
                ("{{#if x}}{{/each}}", "{{/each}} does not close {{#if}}"),
                ("{{nope 'a'}}", "unknown helper nope"), ("{{request.path", "unclosed tag"),
            ] {
                let mapping: JSONValue = .object([
                    "request": .object(["urlPath": .string("/c")]),
                    "response": .object([
                        "body": .string(template), "transformers": .array([.string("response-template")]),
                    ]),
                ])
                let refused = try perform(server, "POST", "/__admin/mappings", body: mapping.text)
                if message.hasPrefix("unknown helper") {
                    // Helpers are resolved when rendering.
                    #expect(refused.status == 201, "\(refused.text)")
                    let served = try perform(server, "/c")
                    #expect(served.status == 500)
                    #expect(served.text.contains(message), "\(served.text)")
                } else {
                    #expect(refused.status == 422, "\(template): \(refused.text)")
                    #expect(
                        refused.text.contains("mapping.response.body: invalid template"), "\(refused.text)")
                    #expect(refused.text.contains(message), "\(refused.text)")
                }
            }
        }
    }

    @Test func unknownTransformersAndStrayParametersAreRefused() async throws {
        try await withMockServer { server in
            let unknown = try perform(
                server, "POST", "/__admin/mappings",
                body:
                    #"{"request": {"url": "/t"}, "response": {"body": "x", "transformers": ["body-transformer"]}}"#
            )
            #expect(unknown.status == 422)
            #expect(unknown.text.contains("mapping.response.transformers[0]"), "\(unknown.text)")
            let stray = try perform(
                server, "POST", "/__admin/mappings",
                body:
                    #"{"request": {"url": "/t"}, "response": {"body": "x", "transformerParameters": {"a": 1}}}"#
            )
            #expect(stray.status == 422)
            #expect(stray.text.contains("mapping.response.transformerParameters"), "\(stray.text)")
        }
    }

    /// Hostile templates end in an error, not a hang or a crash.
    @Test func expensiveTemplatesAreCut() throws {
        let nested =
            String(repeating: "{{#each (array 1 2 3 4 5 6 7 8 9 10)}}", count: 8) + "x"
            + String(repeating: "{{/each}}", count: 8)
        let template = try Template(nested)
        #expect(throws: Template.Failure.self) { try template.render(.map([:])) }
        let deep = String(repeating: "{{#if true}}", count: 100) + String(repeating: "{{/if}}", count: 100)
        #expect(throws: Template.Failure.self) { try Template(deep) }
    }

    /// Helpers that grow their input are held to the render's output limit before they build the text:
    /// ten nested replaces of "a" by ten of them were 10^10 characters, and one replace of a frequent
    /// target by a long text, or a join with a long separator, are as bad in one step. A reasonable
    /// replace is not counted at all.
    @Test func growingHelpersStopAtTheOutputLimit() throws {
        let context: TemplateValue = .map([
            "long": .string(String(repeating: "z", count: 1 << 20)),
            "many": .string(String(repeating: "a", count: 1 << 12)),
        ])
        // "a" by a thousand of them, three times: 10^9 characters.
        let thousand = "'" + String(repeating: "a", count: 1000) + "'"
        let nested = "(replace (replace 'a' 'a' \(thousand)) 'a' \(thousand))"
        for source in [
            "{{replace \(nested) 'a' \(thousand)}}", "{{replace many 'a' long}}",
            "{{join long (array 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17)}}",
        ] {
            let error = #expect(throws: Template.Failure.self, "\(source.prefix(60))") {
                try Template(source).render(context)
            }
            #expect(error?.message.contains("a render may") == true, "\(String(describing: error))")
        }
        // Within the limit they work as before.
        #expect(try Template("{{replace 'abab' 'a' 'xyz'}}").render(context) == "xyzbxyzb")
        #expect(try Template("{{join ',' (array 1 2 3)}}").render(context) == "1,2,3")
    }

    /// Numbers a request supplies (`1e99`, `nan`, `inf`) are refused by the helpers that take a
    /// whole number, never converted with a trap.
    @Test(arguments: ["1e99", "nan", "inf", "-1e300"])
    func hostileNumbersFailTheTemplate(number: String) throws {
        let context: TemplateValue = .map(["n": .string(number)])
        for source in [
            "{{substring 'abc' 0 n}}", "{{substring 'abc' n}}", "{{randomInt lower=0 upper=n}}",
            "{{randomInt lower=n upper=5}}", "{{randomValue length=n}}",
        ] {
            #expect(throws: Template.Failure.self, "\(source) with n = \(number)") {
                try Template(source).render(context)
            }
        }
    }
}
