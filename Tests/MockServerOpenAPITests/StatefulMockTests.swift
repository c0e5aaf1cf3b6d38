import CourierOpenAPI
import CourierTesting
import Foundation
import MockServerOpenAPI
import Testing

/// The pet-shelter fixture served with `stateful`: what a POST creates is read back, changed and removed,
/// and whatever the mock answers still holds against the document.
@Suite struct StatefulMockTests {
    static let url = Fixtures.folder.appendingPathComponent("stateful/pet-shelter.yaml")
    let auth = ["Authorization": "Bearer any"]

    func handler(stateful: Bool = true) throws -> OpenAPIHandler {
        var options = OpenAPIMockOptions()
        options.stateful = stateful
        return try OpenAPIHandler(contentsOf: Self.url, seed: 5, options: options)
    }

    func valid(_ answer: Answer, _ schema: String, _ document: OpenAPIDocument) -> Bool {
        guard let body = answer.json else { return false }
        return SchemaValidator(document: document).isValid(
            body, against: .object(["$ref": .string("#/components/schemas/\(schema)")]))
    }

    @Test func whatIsCreatedIsReadChangedListedAndRemoved() async throws {
        let handler = try handler()
        try await Fixtures.serve(handler) { client, _ in
            let created = try await client.json("POST", "/v1/pets", #"{"name": "Rex"}"#, headers: auth)
            #expect(created.status == 201)
            #expect(valid(created, "Pet", handler.document), "\(created.json?.text ?? "")")
            let id = try #require(created.json?["id"]?.intValue)
            #expect(created.json?["name"] == .string("Rex"))
            #expect(created.header("Location") == "/v1/pets/\(id)")
            #expect(created.header("Courier-Mock-Answer") == "stored")

            let read = try await client.send("GET", "/v1/pets/\(id)", headers: auth)
            #expect(read.status == 200)
            #expect(read.json?["name"] == .string("Rex"))
            #expect(read.json?["id"] == .int(Int64(id)))

            let patched = try await client.json("PATCH", "/v1/pets/\(id)", #"{"tag": "dog"}"#, headers: auth)
            #expect(patched.json?["tag"] == .string("dog"))
            #expect(patched.json?["name"] == .string("Rex"))
            let replaced = try await client.json("PUT", "/v1/pets/\(id)", #"{"name": "Max"}"#, headers: auth)
            #expect(replaced.json?["name"] == .string("Max"))
            #expect(replaced.json?["id"] == .int(Int64(id)))

            let second = try await client.json("POST", "/v1/pets", #"{"name": "Bo"}"#, headers: auth)
            let other = try #require(second.json?["id"]?.intValue)
            #expect(other != id, "each creation has its own identifier")
            let list = try await client.send("GET", "/v1/pets", headers: auth)
            #expect(list.json?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Max", "Bo"])

            #expect(try await client.send("DELETE", "/v1/pets/\(id)", headers: auth).status == 204)
            let gone = try await client.send("GET", "/v1/pets/\(id)", headers: auth)
            #expect(gone.status == 404)
            #expect(gone.header("Content-Type") == "application/problem+json")
            #expect(valid(gone, "Problem", handler.document), "\(gone.json?.text ?? "")")
            // What lives under a removed resource's path is gone with it.
            let photo = try await client.send(
                "GET", "/v1/pets/\(id)/photo", headers: ["X-API-Key": "k"])
            #expect(photo.status == 404)
            #expect(try await client.send("DELETE", "/v1/pets/\(id)", headers: auth).status == 404)
            #expect(
                try await client.json("PATCH", "/v1/pets/\(id)", #"{"tag": "x"}"#, headers: auth).status
                    == 404)
            let listed = try await client.send("GET", "/v1/pets", headers: auth)
            #expect(listed.json?.arrayValue?.count == 1)
            // PUT creates the resource it names.
            let put = try await client.json("PUT", "/v1/pets/40", #"{"name": "Kit"}"#, headers: auth)
            #expect(put.status == 200)
            #expect(put.json?["id"] == .int(40), "the path's id, in the schema's type")
            let kit = try await client.send("GET", "/v1/pets/40", headers: auth)
            #expect(kit.json?["name"] == .string("Kit"))
            #expect(kit.json?["id"] == .int(40))
        }
    }

    @Test func anIdentifierSentAndFreeIsKept() async throws {
        let handler = try handler()
        try await Fixtures.serve(handler) { client, _ in
            let created = try await client.json(
                "POST", "/v1/pets", #"{"name": "Rex", "id": 12}"#, headers: auth)
            #expect(created.json?["id"] == .int(12), "the sent id is a valid Pet id")
            let again = try await client.json(
                "POST", "/v1/pets", #"{"name": "Rex", "id": 12}"#, headers: auth)
            #expect(again.json?["id"] != .int(12), "a taken id is not reused")
        }
    }

    @Test func withoutStateEveryIdIsAnsweredFromTheDocument() async throws {
        let handler = try handler(stateful: false)
        try await Fixtures.serve(handler) { client, _ in
            let read = try await client.send("GET", "/v1/pets/999", headers: auth)
            #expect(read.status == 200)
            #expect(read.header("Courier-Mock-Answer") == "example")
            let created = try await client.json("POST", "/v1/pets", #"{"name": "Rex"}"#, headers: auth)
            #expect(
                created.header("Location")?.hasPrefix("/v1/pets/") != true,
                "the declared header's made-up value")
        }
    }

    @Test func preferStillPicksTheDocumentsAnswer() async throws {
        let handler = try handler()
        try await Fixtures.serve(handler) { client, _ in
            let answer = try await client.send(
                "GET", "/v1/pets/3", headers: auth.merging(["Prefer": "code=200"]) { $1 })
            #expect(answer.status == 200)
        }
    }
}
