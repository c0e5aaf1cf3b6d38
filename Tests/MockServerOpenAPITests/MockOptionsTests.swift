import CourierOpenAPI
import CourierTesting
import Foundation
import MockServerOpenAPI
import Testing

/// Configured credentials, refusals by the document's statuses and media types (or the chosen policy
/// where it declares none), empty bodies, paired examples and binary answers.
@Suite struct MockOptionsTests {
    static let url = Fixtures.folder.appendingPathComponent("stateful/pet-shelter.yaml")

    func handler(_ options: OpenAPIMockOptions = OpenAPIMockOptions()) throws -> OpenAPIHandler {
        try OpenAPIHandler(contentsOf: Self.url, seed: 5, options: options)
    }

    static func basic(_ pair: String) -> String { "Basic " + Data(pair.utf8).base64EncodedString() }

    @Test func configuredCredentialsAloneGetIn() async throws {
        var options = OpenAPIMockOptions()
        options.credentials = [
            .bearer("right"), .basic(user: "u", password: "p"), .apiKey(name: "x-api-key", value: "k"),
        ]
        try await Fixtures.serve(try handler(options)) { client, _ in
            let right = try await client.send("GET", "/v1/pets", headers: ["Authorization": "Bearer right"])
            #expect(right.status == 200)
            for headers in [["Authorization": "Bearer wrong"], [:], ["Authorization": Self.basic("u:p")]] {
                let refused = try await client.send("GET", "/v1/pets", headers: headers)
                #expect(refused.status == 401, "\(headers)")
                #expect(refused.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
                #expect(refused.header("Content-Type") == "application/problem+json")
            }
            let note = ["Content-Type": "text/plain"]
            let noted = try await client.send(
                "POST", "/v1/notes", headers: note.merging(["Authorization": Self.basic("u:p")]) { $1 },
                body: Data("hi".utf8))
            #expect(noted.status == 204)
            let wrongPassword = try await client.send(
                "POST", "/v1/notes", headers: note.merging(["Authorization": Self.basic("u:q")]) { $1 },
                body: Data("hi".utf8))
            #expect(wrongPassword.status == 401)
            #expect(
                try await client.send("GET", "/v1/pets/1/photo", headers: ["X-API-Key": "k"]).status == 200)
            let badKey = try await client.send("GET", "/v1/pets/1/photo", headers: ["X-API-Key": "nope"])
            #expect(badKey.status == 401)
            #expect(badKey.header("WWW-Authenticate")?.hasPrefix("ApiKey") == true)
        }
    }

    @Test func withoutConfigurationAnyCredentialsOfTheRightFormGetIn() async throws {
        try await Fixtures.serve(try handler()) { client, _ in
            let any = try await client.send("GET", "/v1/pets", headers: ["Authorization": "Bearer x"])
            #expect(any.status == 200)
            let none = try await client.send("GET", "/v1/pets")
            #expect(none.status == 401)
        }
    }

    @Test(arguments: [
        ("bearer=abc", MockCredential.bearer("abc")), ("basic=u:p:q", .basic(user: "u", password: "p:q")),
        ("apiKey=X-Key:v=1", .apiKey(name: "X-Key", value: "v=1")), ("BEARER=t", .bearer("t")),
    ])
    func credentialsAreReadAsWritten(text: String, credential: MockCredential) throws {
        #expect(try MockCredential(parsing: text) == credential)
    }

    @Test(arguments: ["bearer=", "token=abc", "basic=nopassword", "apiKey=:v", "apiKey=name:", "bearer"])
    func malformedCredentialsAreRefused(text: String) {
        let error = #expect(throws: MockCredentialError.self) { try MockCredential(parsing: text) }
        #expect(error?.description.contains("bearer=TOKEN") == true)
    }

    @Test func refusalsTakeTheDeclaredMediaTypeAndSchema() async throws {
        let handler = try handler()
        try await Fixtures.serve(handler) { client, _ in
            let answer = try await client.json(
                "POST", "/v1/pets", #"{"name": ""}"#, headers: ["Authorization": "Bearer t"])
            #expect(answer.status == 422)
            #expect(answer.header("Content-Type") == "application/problem+json")
            let body = try #require(answer.json)
            #expect(
                SchemaValidator(document: handler.document).isValid(
                    body, against: .object(["$ref": .string("#/components/schemas/Problem")])), "\(body.text)"
            )
            #expect(body["status"] == .int(422))
        }
    }

    static let undeclared = """
        openapi: 3.0.3
        info: {title: Quiet, version: '1'}
        paths:
          /items:
            get:
              parameters:
                - {name: limit, in: query, schema: {type: integer}}
              responses:
                '200':
                  description: items
                  content:
                    application/json:
                      schema: {type: array, items: {type: string}}
        """

    @Test(arguments: [
        (UndeclaredRefusal.standard, 400, false), (.status(418), 418, false), (.accept, 200, true),
    ])
    func anOperationWithoutA4xxRefusesAsChosen(mode: UndeclaredRefusal, status: Int, named: Bool) async throws
    {
        var options = OpenAPIMockOptions()
        options.undeclaredRefusals = mode
        let handler = OpenAPIHandler(document: try Fixtures.document(Self.undeclared), options: options)
        try await Fixtures.serve(handler) { client, _ in
            let answer = try await client.send("GET", "/items?limit=many")
            #expect(answer.status == status)
            let refusal = answer.header(OpenAPIHandler.refusalHeader)
            #expect((refusal != nil) == named)
            if named { #expect(refusal?.contains("query 'limit'") == true, "\(refusal ?? "")") }
            #expect(try await client.send("GET", "/items?limit=2").status == 200)
        }
    }

    @Test(arguments: ["standard", "accept", "400", "599"])
    func undeclaredRefusalModesAreRead(text: String) {
        #expect(UndeclaredRefusal(parsing: text) != nil)
    }

    @Test(arguments: ["", "399", "600", "refuse"])
    func unknownUndeclaredRefusalModesAreNot(text: String) {
        #expect(UndeclaredRefusal(parsing: text) == nil)
    }

    @Test func anEmptyBodyWithAContentTypeIsABody() async throws {
        try await Fixtures.serve(try handler()) { client, _ in
            let auth = ["Authorization": Self.basic("u:p")]
            for type in ["text/plain", "application/octet-stream"] {
                let answer = try await client.send(
                    "POST", "/v1/notes", headers: auth.merging(["Content-Type": type]) { $1 }, body: Data())
                #expect(answer.status == 204, "\(type): \(String(decoding: answer.body, as: UTF8.self))")
            }
            let none = try await client.send("POST", "/v1/notes", headers: auth)
            #expect(none.status == 400, "no Content-Type and no bytes: no body")
        }
    }

    @Test(arguments: [
        (#"{"ticketType": "general", "ticketDate": "2026-10-29"}"#, "general", 1),
        (#"{"ticketType": "event", "eventId": 7, "ticketDate": "2026-10-29"}"#, "event", 2),
        (#"{"ticketType": "general", "ticketDate": "2027-01-02"}"#, "general", 1),
    ])
    func theAnswerIsTheExampleNamedAsTheRequests(body: String, type: String, ticket: Int) async throws {
        try await Fixtures.serve(try handler()) { client, _ in
            let answer = try await client.json(
                "POST", "/v1/tickets", body, headers: ["Authorization": "Bearer t"])
            #expect(answer.status == 201)
            #expect(answer.json?["ticketType"] == .string(type))
            #expect(answer.json?["ticketId"] == .int(Int64(ticket)))
        }
    }

    @Test func aBinaryExampleIsServedAsAFileOfItsType() async throws {
        try await Fixtures.serve(try handler()) { client, _ in
            let photo = try await client.send("GET", "/v1/pets/1/photo", headers: ["X-API-Key": "k"])
            #expect(photo.status == 200)
            #expect(photo.header("Content-Type") == "image/png")
            #expect(BinaryFiles.isPNG(photo.body), "the document's example is the text 'a photo'")
        }
    }
}
