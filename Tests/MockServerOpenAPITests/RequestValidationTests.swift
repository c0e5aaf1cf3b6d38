import CourierOpenAPI
import CourierTesting
import Foundation
import MockServerOpenAPI
import Testing

/// Requests checked against an inline document: parameter styles, security, bodies by media type, and
/// content negotiation.
@Suite struct RequestValidationTests {
    static let yaml = """
        openapi: 3.1.0
        info: {title: Shop, version: '1'}
        servers: [{url: 'https://shop.example.com/api/v2'}]
        components:
          securitySchemes:
            bearer: {type: http, scheme: bearer}
            basic: {type: http, scheme: basic}
            key: {type: apiKey, in: query, name: key}
            session: {type: apiKey, in: cookie, name: session}
            tenant: {type: apiKey, in: header, name: X-Tenant}
          schemas:
            Item:
              type: object
              required: [name, price]
              properties:
                id: {type: integer, readOnly: true}
                name: {type: string, maxLength: 10}
                price: {type: number, exclusiveMinimum: 0}
                tags: {type: array, items: {type: string}}
        paths:
          /items:
            get:
              parameters:
                - {name: ids, in: query, schema: {type: array, items: {type: integer}}}
                - {name: sizes, in: query, style: pipeDelimited, explode: false, schema: {type: array, items: {type: string, enum: [s, m, l]}}}
                - {name: filter, in: query, style: deepObject, schema: {type: object, properties: {min: {type: integer}, max: {type: integer, maximum: 100}}}}
                - {name: X-Trace, in: header, schema: {type: array, items: {type: integer}, maxItems: 2}}
                - {name: lang, in: cookie, schema: {type: string, enum: [en, fr]}}
              responses:
                '200':
                  description: items
                  content:
                    application/json:
                      schema: {type: array, items: {$ref: '#/components/schemas/Item'}}
                      examples:
                        two: {value: [{id: 1, name: pen, price: 2}, {id: 2, name: ink, price: 3.5}]}
                        none: {value: []}
                    application/xml:
                      schema: {type: array, items: {$ref: '#/components/schemas/Item'}}
            post:
              security: [{bearer: []}, {key: [], tenant: []}]
              requestBody:
                required: true
                content:
                  application/json: {schema: {$ref: '#/components/schemas/Item'}}
                  application/x-www-form-urlencoded: {schema: {$ref: '#/components/schemas/Item'}}
                  multipart/form-data: {schema: {$ref: '#/components/schemas/Item'}}
              responses:
                '201':
                  description: made
                  headers:
                    Location: {required: true, schema: {type: string, format: uri}}
                  content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}
                '422': {description: invalid}
          /items/{id}:
            get:
              security: [{basic: []}, {session: []}]
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer, minimum: 1}}
              responses:
                '200': {description: one, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
                '404': {description: none, content: {application/json: {example: {message: gone}}}}
            delete:
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
              responses:
                '204': {description: gone}
          /items/featured:
            get:
              responses:
                '200': {description: featured}
          /search:
            post:
              requestBody:
                content:
                  application/x-www-form-urlencoded:
                    schema: {type: object, required: [q], properties: {q: {type: string}}}
              responses:
                '200': {description: found}
                '404':
                  description: nothing
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [code, reason]
                        additionalProperties: false
                        properties: {code: {type: integer}, reason: {type: string}}
          /items/{id}/labels/{range}:
            get:
              parameters:
                - {name: id, in: path, required: true, style: label, explode: true, schema: {type: array, items: {type: integer}}}
                - {name: range, in: path, required: true, style: matrix, schema: {type: array, items: {type: integer}, minItems: 2}}
              responses:
                '200': {description: ok}
        """

    let handler: OpenAPIHandler

    init() throws {
        handler = OpenAPIHandler(document: try Fixtures.document(Self.yaml), seed: 1)
    }

    private func problems(_ answer: Answer) -> [String] {
        (answer.json?["problems"]?.arrayValue ?? []).map { problem in
            [problem["in"], problem["name"], problem["path"], problem["rule"]].compactMap { $0?.stringValue }
                .joined(separator: " ")
        }
    }

    @Test func queryHeaderAndCookieStyles() async throws {
        try await Fixtures.serve(handler) { client, _ in
            let good = try await client.send(
                "GET", "/api/v2/items?ids=1&ids=2&sizes=s%7Cl&filter%5Bmin%5D=1&filter%5Bmax%5D=9",
                headers: ["X-Trace": "4, 5", "Cookie": "lang=fr"])
            #expect(good.status == 200, "\(String(decoding: good.body, as: UTF8.self))")
            let bad = try await client.send(
                "GET", "/api/v2/items?ids=1&ids=x&sizes=s%7Cxl&filter%5Bmax%5D=101",
                headers: ["X-Trace": "1,2,3", "Cookie": "lang=de"])
            #expect(bad.status == 400)
            #expect(
                Set(problems(bad)) == [
                    "query ids $[1] type", "query sizes $[1] enum", "query filter $.max maximum",
                    "header X-Trace $ maxItems", "cookie lang $ enum",
                ])
        }
    }

    @Test func pathStyles() async throws {
        try await Fixtures.serve(handler) { client, _ in
            #expect(try await client.send("GET", "/items/.1.2/labels/;range=3,4").status == 200)
            let bad = try await client.send("GET", "/items/.1.x/labels/;range=3")
            #expect(Set(problems(bad)) == ["path id $[1] type", "path range $ minItems"])
            let unstyled = try await client.send("GET", "/items/1/labels/3,4")
            #expect(Set(problems(unstyled)) == ["path id $ style", "path range $ style"])
        }
    }

    @Test func securityIsAnOrOfAnds() async throws {
        try await Fixtures.serve(handler) { client, _ in
            let item = #"{"name": "pen", "price": 2}"#
            let none = try await client.json("POST", "/items", item)
            #expect(none.status == 401)
            #expect(none.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(
                try await client.json("POST", "/items", item, headers: ["Authorization": "Bearer t0k"]).status
                    == 201)
            #expect(try await client.json("POST", "/items?key=k", item).status == 401)
            #expect(
                try await client.json("POST", "/items?key=k", item, headers: ["X-Tenant": "a"]).status == 201)
            #expect(try await client.send("GET", "/items/3").status == 401)
            #expect(
                try await client.send("GET", "/items/3", headers: ["Authorization": "Basic bm9jb2xvbg=="])
                    .status == 401)
            #expect(
                try await client.send("GET", "/items/3", headers: ["Authorization": "Basic dTpw"]).status
                    == 200)
            #expect(
                try await client.send("GET", "/items/3", headers: ["Cookie": "a=b; session=s1"]).status == 200
            )
        }
    }

    @Test func bodiesByMediaType() async throws {
        let auth = ["Authorization": "Bearer t"]
        try await Fixtures.serve(handler) { client, _ in
            let made = try await client.json(
                "POST", "/items", #"{"name": "pen", "price": 2, "tags": ["a"]}"#, headers: auth)
            #expect(made.status == 201)
            #expect(made.header("Location")?.hasPrefix("https://") == true)
            let invalid = try await client.json(
                "POST", "/items", #"{"name": "a very long name", "price": 0}"#, headers: auth)
            #expect(invalid.status == 422)
            #expect(Set(problems(invalid)) == ["body $.name maxLength", "body $.price exclusiveMinimum"])
            // A malformed or missing body is a 400, but this operation declares 422 and no 400: its 422.
            let malformed = try await client.json("POST", "/items", #"{"name": "pen",}"#, headers: auth)
            #expect(malformed.status == 422)
            #expect(problems(malformed) == ["body $ syntax"])
            let missing = try await client.send("POST", "/items", headers: auth)
            #expect(missing.status == 422)
            #expect(problems(missing) == ["body required"])
            let text = try await client.send(
                "POST", "/items", headers: auth.merging(["Content-Type": "text/plain"]) { $1 },
                body: Data("pen".utf8))
            #expect(text.status == 415)
            let form = try await client.send(
                "POST", "/items",
                headers: auth.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 },
                body: Data("name=pen&price=2.5&tags=a&tags=b".utf8))
            #expect(form.status == 201)
            let badForm = try await client.send(
                "POST", "/items",
                headers: auth.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 },
                body: Data("name=pen&price=free".utf8))
            #expect(problems(badForm) == ["body $.price type"])
            let multipart =
                "--XyZ\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\npen\r\n--XyZ\r\nContent-Disposition: form-data; name=\"price\"\r\n\r\n-1\r\n--XyZ--\r\n"
            let parts = try await client.send(
                "POST", "/items",
                headers: auth.merging(["Content-Type": "multipart/form-data; boundary=XyZ"]) { $1 },
                body: Data(multipart.utf8))
            #expect(problems(parts) == ["body $.price exclusiveMinimum"])
        }
    }

    @Test func examplesNegotiationAndPrefer() async throws {
        try await Fixtures.serve(handler) { client, _ in
            let named = try await client.send("GET", "/items", headers: ["Prefer": "example=two"])
            #expect(named.json?.arrayValue?.count == 2)
            let none = try await client.send("GET", "/items", headers: ["Prefer": "example=none"])
            #expect(none.json == .array([]))
            let xml = try await client.send("GET", "/items", headers: ["Accept": "application/xml"])
            #expect(xml.header("Content-Type") == "application/xml")
            #expect(String(decoding: xml.body, as: UTF8.self).hasPrefix("<?xml"))
            let json = try await client.send(
                "GET", "/items", headers: ["Accept": "application/xml;q=0.5, application/json"])
            #expect(json.header("Content-Type") == "application/json")
            let refused = try await client.send("GET", "/items", headers: ["Accept": "text/csv"])
            #expect(refused.status == 406)
            let gone = try await client.send(
                "GET", "/items/3", headers: ["Prefer": "code=404", "Authorization": "Basic dTpw"])
            #expect(gone.status == 404)
            #expect(gone.json == .object(["message": .string("gone")]))
            let undeclared = try await client.send(
                "GET", "/items/3", headers: ["Prefer": "code=418", "Authorization": "Basic dTpw"])
            #expect(undeclared.status == 404)
            #expect(undeclared.json?["error"] == .string("no_response"))
        }
    }

    @Test func concretePathsWinOverTemplatesWhateverTheMethod() async throws {
        try await Fixtures.serve(handler) { client, _ in
            #expect(try await client.send("GET", "/items/featured").status == 200)
            let other = try await client.send("DELETE", "/items/featured")
            #expect(other.status == 405)
            #expect(other.header("Allow") == "GET")
            #expect(try await client.send("DELETE", "/items/5").status == 204)
        }
    }

    @Test func refusalsTakeTheDocumentsStatusAndShape() async throws {
        try await Fixtures.serve(handler) { client, _ in
            // An empty form is the object {}, which lacks `q`; the operation declares no 400 or 422, so its
            // 404 carries the refusal, in the 404's own shape.
            let answer = try await client.send(
                "POST", "/search", headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(answer.status == 404)
            let body = try #require(answer.json)
            let schema = try #require(
                handler.document.operations.first { $0.path == "/search" }?.responses["404"]?["content"]?[
                    "application/json"]?["schema"])
            #expect(
                SchemaValidator(document: handler.document).validate(body, against: schema).isEmpty,
                "\(body.text)")
            #expect(body["code"] == .int(404))
            let found = try await client.send(
                "POST", "/search", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("q=pen".utf8))
            #expect(found.status == 200)
        }
    }

    /// JSON that is well-formed but holds a value no parser can build (a number beyond any float) is
    /// refused with the reason, never accepted unchecked.
    @Test func aBodyThatCannotBeReadIsRefusedWithTheReason() async throws {
        let auth = ["Authorization": "Bearer t"]
        try await Fixtures.serve(handler) { client, _ in
            let answer = try await client.json(
                "POST", "/items", #"{"name": "pen", "price": 1e400}"#, headers: auth)
            #expect(answer.status == 422, "the operation's word for a refused body")
            #expect(problems(answer) == ["body $ syntax"])
            let message = answer.json?["message"]?.stringValue ?? ""
            #expect(message.contains("cannot be read"), "\(message)")
        }
    }

    @Test func invalidDocumentIsRefusedAtStart() throws {
        let error = #expect(throws: OpenAPIDocumentError.self) {
            try OpenAPIHandler(contentsOf: URL(fileURLWithPath: "/nonexistent/openapi.yaml"))
        }
        #expect(error?.code == .unreadable)
    }
}

/// An operation with no responses (OpenAPI 3.1) is answered with no content, not a server error.
@Suite struct NoResponsesTests {
    static let yaml = """
        openapi: 3.1.0
        info: {title: Silent, version: '1'}
        paths:
          /ping:
            get:
              summary: Declares no response
        """

    @Test func anOperationWithNoResponsesIsAnsweredWithNoContent() async throws {
        let handler = OpenAPIHandler(document: try Fixtures.document(Self.yaml))
        try await Fixtures.serve(handler) { client, _ in
            let answer = try await client.send("GET", "/ping")
            #expect(answer.status == 204)
            #expect(answer.body.isEmpty)
            let preferred = try await client.send("GET", "/ping", headers: ["Prefer": "code=200"])
            #expect(preferred.status == 404, "a status the operation does not declare is still refused")
        }
    }
}

/// XML bodies checked by their schema's `xml` objects.
@Suite struct XMLBodyTests {
    static let yaml = """
        openapi: 3.0.3
        info: {title: XML, version: '1'}
        paths:
          /orders:
            post:
              requestBody:
                required: true
                content:
                  application/xml:
                    schema:
                      type: object
                      xml: {name: order}
                      required: [id, complete]
                      properties:
                        id: {type: integer, format: int32, xml: {attribute: true}}
                        complete: {type: boolean}
                        tags: {type: array, xml: {wrapped: true}, items: {type: string, xml: {name: tag}}}
                        lines: {type: array, items: {type: integer, xml: {name: line}}}
              responses:
                '201': {description: made}
                '400': {description: bad}
        """

    @Test func xmlBodiesAreValidatedLikeJSON() async throws {
        let handler = OpenAPIHandler(document: try Fixtures.document(Self.yaml))
        try await Fixtures.serve(handler) { client, _ in
            let headers = ["Content-Type": "application/xml"]
            let good =
                "<order id=\"7\"><complete>true</complete><tags><tag>a</tag><tag>b</tag></tags><line>1</line><line>2</line></order>"
            #expect(
                try await client.send("POST", "/orders", headers: headers, body: Data(good.utf8)).status
                    == 201)
            let bad = "<order id=\"2147483648\"><complete></complete><line>x</line></order>"
            let refused = try await client.send("POST", "/orders", headers: headers, body: Data(bad.utf8))
            #expect(refused.status == 400)
            let rules = Set(
                (refused.json?["problems"]?.arrayValue ?? []).compactMap { problem in
                    problem["path"]?.stringValue.map { "\($0) \(problem["rule"]?.stringValue ?? "")" }
                })
            #expect(rules == ["$.id format", "$.complete type", "$.lines[0] type"])
            let broken = try await client.send(
                "POST", "/orders", headers: headers, body: Data("<order><id>".utf8))
            #expect(broken.status == 400)
            #expect(broken.json?["problems"]?.arrayValue?.first?["rule"] == .string("syntax"))
        }
    }
}
