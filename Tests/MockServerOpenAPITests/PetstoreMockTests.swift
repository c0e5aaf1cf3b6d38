import CourierOpenAPI
import CourierTesting
import Foundation
import MockServerOpenAPI
import Testing

/// The Petstore 3.0 fixture served over loopback: routing under and without the base path, answers that
/// validate against the document, refusals that name the parameter and rule, Prism's `Prefer`.
@Suite struct PetstoreMockTests {
    let handler: OpenAPIHandler
    let document: OpenAPIDocument

    init() throws {
        handler = try OpenAPIHandler(
            contentsOf: Fixtures.folder.appendingPathComponent("petstore-3.0.yaml"), seed: 3)
        document = handler.document
    }

    private func schema(_ name: String) -> JSONValue {
        .object(["$ref": .string("#/components/schemas/\(name)")])
    }

    @Test func answersValidateAgainstTheDocument() async throws {
        try await Fixtures.serve(handler) { client, _ in
            let validator = SchemaValidator(document: document)
            let targets = [
                ("/pets", "Pets"), ("/v1/pets", "Pets"), ("/pets?limit=5", "Pets"), ("/pets/abc", "Pet"),
                ("/v1/pets/7", "Pet"),
            ]
            for (target, name) in targets {
                let answer = try await client.send("GET", target)
                #expect(answer.status == 200, "\(target)")
                #expect(answer.header("Content-Type") == "application/json")
                let body = try #require(answer.json)
                #expect(validator.validate(body, against: schema(name)).isEmpty, "\(target): \(body.text)")
            }
            let created = try await client.json("POST", "/pets", #"{"id": 1, "name": "Rex"}"#)
            #expect(created.status == 201)
            #expect(created.body.isEmpty)
            let empty = try await client.send("POST", "/pets")
            #expect(empty.status == 400)
        }
    }

    @Test func badParameterIsRefusedNamingItAndTheRule() async throws {
        try await Fixtures.serve(handler) { client, _ in
            let answer = try await client.send("GET", "/pets?limit=many")
            #expect(answer.status == 400)
            // The document's `default` answer is an Error {code, message}: the refusal takes that shape,
            // its message and problems kept where the schema leaves room.
            let body = try #require(answer.json)
            #expect(SchemaValidator(document: document).validate(body, against: schema("Error")).isEmpty)
            #expect(body["code"] == .int(400))
            #expect(body["message"]?.stringValue?.contains("limit") == true)
            let problem = answer.json?["problems"]?.arrayValue?.first
            #expect(problem?["in"] == .string("query"))
            #expect(problem?["name"] == .string("limit"))
            #expect(problem?["rule"] == .string("type"))
            let overflow = try await client.send("GET", "/pets?limit=101")
            #expect(overflow.status == 400)
            #expect(overflow.json?["problems"]?.arrayValue?.first?["rule"] == .string("maximum"))
        }
    }

    @Test func otherMethodOnAKnownPathIs405WithAllow() async throws {
        try await Fixtures.serve(handler) { client, _ in
            let answer = try await client.send("DELETE", "/pets")
            #expect(answer.status == 405)
            #expect(answer.header("Allow") == "GET, POST")
            let unknown = try await client.send("GET", "/owners")
            #expect(unknown.status == 404)
        }
    }

    @Test func preferChoosesTheStatusAndTheExample() async throws {
        try await Fixtures.serve(handler) { client, _ in
            let error = try await client.send("GET", "/pets", headers: ["Prefer": "code=500"])
            #expect(error.status == 500)
            let body = try #require(error.json)
            #expect(SchemaValidator(document: document).validate(body, against: schema("Error")).isEmpty)
            let missing = try await client.send("GET", "/pets", headers: ["Prefer": "example=nope"])
            #expect(missing.status == 404)
            #expect(missing.json?["error"] == .string("no_example"))
        }
    }

    @Test func sameSeedSameAnswersDynamicVaries() async throws {
        let first = try await Fixtures.serve(handler) { client, _ in
            try await client.send("GET", "/pets").body
        }
        let again = try await Fixtures.serve(handler) { client, _ in
            try await client.send("GET", "/pets").body
        }
        #expect(first == again)
        let other = OpenAPIHandler(document: document, seed: 4)
        let otherBody = try await Fixtures.serve(other) { client, _ in
            try await client.send("GET", "/pets").body
        }
        #expect(otherBody != first)
        try await Fixtures.serve(handler) { client, _ in
            var bodies: Set<Data> = []
            for page in 0..<5 {
                let answer = try await client.send(
                    "GET", "/pets?limit=\(page)", headers: ["Prefer": "dynamic=true"])
                #expect(answer.status == 200)
                bodies.insert(answer.body)
            }
            #expect(bodies.count > 1)
        }
    }

    @Test func stubsLayerOnTopWhileRequestsAreStillChecked() async throws {
        try await Fixtures.serve(handler) { client, server in
            let stub =
                #"{"request": {"method": "GET", "urlPath": "/pets"}, "response": {"status": 200, "jsonBody": [{"id": 1, "name": "Stubbed"}]}}"#
            _ = try server.addStubs(json: Data(stub.utf8))
            let answer = try await client.send("GET", "/pets")
            #expect(answer.json?.arrayValue?.first?["name"] == .string("Stubbed"))
            let refused = try await client.send("GET", "/pets?limit=x")
            #expect(refused.status == 400)
        }
    }
}

extension JSONValue {
    var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }
}
