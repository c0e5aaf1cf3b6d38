import Courier
import CourierContract
import CourierContractModel
import CourierOpenAPI
import CourierPrimitives
import Endpoints
import Foundation
import MockServer
import MockServerContract
import MockServerOpenAPI
import Testing

/// An API served both ways: by its declaration (`ContractHandler`) and by its own generated 3.1
/// document (`OpenAPIHandler`).
struct ServedBothWays {
    let declaration: ContractHandler
    let document: OpenAPIHandler

    init(title: String, operations: [APIOperation]) throws {
        declaration = ContractHandler(operations: operations)
        let data = try OpenAPIWriter.data(title: title, operations: operations)
        document = OpenAPIHandler(
            document: try OpenAPIDocument.parse(data, url: URL(fileURLWithPath: "openapi.json")))
    }
}

extension HTTPHandler {
    /// The status the mock server answers with, the gate first as the server tries it; nil when this
    /// handler does not serve the request.
    func status(of request: ServerRequest) -> Int? {
        (gate(request) ?? handle(request))?.status
    }
}

/// Every API in the package, served both ways, answers a generated set of good and bad requests alike.
@Suite struct EngineParityTests {
    static func samples(_ api: String) -> [any EndpointDescribing] {
        switch api {
        case "social": SocialAPI.samples
        case "notes": NotesAPI.samples
        case "readme": PostsAPI.samples
        default: PetsAPI.samples
        }
    }

    @Test(arguments: ["social", "notes", "readme", "pets"])
    func bothEnginesAnswerAlike(api: String) throws {
        let samples = Self.samples(api)
        let served = try ServedBothWays(title: api, operations: samples.map(\.operation))
        let requests = ParityRequests(samples: samples).all()
        #expect(requests.count >= 10 * samples.count, "\(requests.count) requests")
        var differences: [String] = []
        for item in requests {
            let declared = served.declaration.status(of: item.request)
            let documented = served.document.status(of: item.request)
            if declared != documented {
                differences.append(
                    "\(item): declaration \(declared.map(String.init) ?? "-"), "
                        + "document \(documented.map(String.init) ?? "-")")
            }
        }
        #expect(
            differences.isEmpty,
            "\(differences.count) of \(requests.count) differ:\n\(differences.joined(separator: "\n"))")
    }
}

/// A JSON number with no fractional part is an integer to both engines, as JSON Schema counts them.
@Test func oneAndAZeroFractionIsAnIntegerBothWays() throws {
    let schema = Schema.integer(minimum: 0, maximum: 40)
    #expect(schema.violations(of: .double(1.0), at: "body").isEmpty)
    #expect(schema.violations(of: .double(1.5), at: "body").map(\.rule) == ["type"])
    let document = try OpenAPIDocument.parse(
        Data(#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}}"#.utf8))
    let validator = SchemaValidator(document: document)
    let written: JSONValue = .object(["type": .string("integer"), "minimum": .int(0), "maximum": .int(40)])
    #expect(validator.validate(.double(1.0), against: written).isEmpty)
    #expect(validator.validate(.double(1.5), against: written).map(\.rule) == ["type"])
}

/// An API with each rule the two engines once disagreed on: string rules without a hand-written
/// pattern, a body operation declaring 422 (400 is declared for every body), a concrete path beside a
/// template of another method, and integer properties.
enum PetsAPI: API {
    static func mine() -> Endpoint<Pet> { endpoint(.get, "/pets/mine", "My pet") {} }

    static func pet(id: String) -> Endpoint<Pet> {
        endpoint(.get, "/pets/{id}", "One pet", errors: [404]) { Path("id", id, .identifier) }
    }

    static func remove(id: String) -> Endpoint<EmptyResponse> {
        endpoint(.delete, "/pets/{id}", "Remove a pet", status: 204, errors: [404]) {
            Path("id", id, .identifier)
        }
    }

    static func create(_ pet: NewPet) -> Endpoint<Pet> {
        endpoint(.post, "/pets", "Add a pet", status: 201, errors: [422]) { Body(pet) }
    }

    static var samples: [any EndpointDescribing] {
        [mine(), pet(id: "p1"), remove(id: "p1"), create(NewPet(name: "rex", tag: "t-12", age: 3))]
    }
}

struct Pet: Codable, Sendable, SchemaDescribing {
    var id: String
    var name: String
    var age: Int
    static let propertySchemas: [String: Schema] = ["id": .identifier]
}

struct NewPet: Codable, Sendable, SchemaDescribing {
    var name: String
    var tag: String
    var age: Int
    static let propertySchemas: [String: Schema] = [
        "name": .string(
            Schema.StringRules(
                minLength: 1, maxLength: 20, allowed: Set("abcdefghijklmnopqrstuvwxyz.-"), noLeadingDot: true)
        ),
        "tag": .string(
            Schema.StringRules(minLength: 3, maxLength: 12, prefix: "t-", allowed: Set("0123456789"))),
        "age": .integer(minimum: 0, maximum: 40),
    ]
}
