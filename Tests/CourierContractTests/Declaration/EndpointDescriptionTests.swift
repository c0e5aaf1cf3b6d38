import Courier
import CourierContract
import Foundation
import Synchronization
import Testing

/// A call of an `Endpoint` carries its values only: the operation's description (schemas,
/// responses) is made once per operation, when something asks for it.
struct EndpointDescriptionTests {
    /// Counts how often a schema is derived from `Counted` (derivation runs its `init(from:)`).
    static let derivations = Atomic<Int>(0)

    struct Counted: Codable, Sendable {
        var id: String

        init(from decoder: any Decoder) throws {
            EndpointDescriptionTests.derivations.add(1, ordering: .relaxed)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
        }
    }

    enum CountedAPI: API {
        static func one(id: String, limit: Int? = nil) -> Endpoint<Counted> {
            endpoint(.get, "/counted/{id}", "One counted thing", errors: [404]) {
                Path("id", id)
                Query("limit", limit, .integer(minimum: 1, maximum: 10), default: 3)
            }
        }

        static var samples: [any EndpointDescribing] { [one(id: "c1")] }
    }

    @Test func buildingRequestsDescribesNothingAndTheDescriptionIsMadeOnce() throws {
        let base = URL(string: "http://127.0.0.1:9")!
        let before = Self.derivations.load(ordering: .relaxed)
        for number in 0..<50 {
            let request = try CountedAPI.one(id: "c\(number)").makeRequest(baseURL: base)
            #expect(request.url.absoluteString == "http://127.0.0.1:9/counted/c\(number)")
        }
        #expect(Self.derivations.load(ordering: .relaxed) == before)

        let operation = CountedAPI.one(id: "a").operation
        let described = Self.derivations.load(ordering: .relaxed)
        #expect(described > before)
        #expect(operation.id == "counted.one")
        #expect(operation.parameters.map(\.name) == ["id", "limit"])
        #expect(operation.parameters.last?.defaultValue == "3")
        #expect(operation.parameters.last?.schema == .integer(minimum: 1, maximum: 10))
        #expect(operation.errors.map(\.status) == [400, 404])

        #expect(CountedAPI.one(id: "b", limit: 2).operation == operation)
        #expect(CountedAPI.operations == [operation])
        #expect(Self.derivations.load(ordering: .relaxed) == described)
    }

    @Test func aCallsArgumentsAreItsOwnValues() {
        #expect(CountedAPI.one(id: "x1", limit: 7).arguments == ["id": "x1", "limit": "7"])
        #expect(CountedAPI.one(id: "x2").arguments == ["id": "x2"])
    }

    @Test func anUnsafePathValueStillFailsTheRequest() {
        #expect(throws: CourierError.self) {
            try CountedAPI.one(id: "../etc").makeRequest(baseURL: URL(string: "http://127.0.0.1:9")!)
        }
    }
}
