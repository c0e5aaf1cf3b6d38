import Courier
import CourierContract
import Foundation
import Testing

/// An endpoint sends what its declaring function was given: a value that cannot be encoded fails
/// the call, naming the parameter and the cause, and a nil leaves the parameter out (its
/// declared default is the server's to apply).
struct EndpointParameterTests {
    /// A value whose encoding always fails.
    struct Unwritable: Codable, Sendable {
        var id: Int

        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(
                id, .init(codingPath: encoder.codingPath, debugDescription: "no text form"))
        }
    }

    struct Item: Codable, Sendable { var id: Int }

    enum BrokenAPI: API {
        static func item(id: Unwritable) -> Endpoint<Item> {
            endpoint(.get, "/items/{id}", "One item") { Path("id", id) }
        }
        static func search(term: Unwritable) -> Endpoint<[Item]> {
            endpoint(.get, "/items", "Items matching a term") { Query("term", term) }
        }
        static func tagged(tag: Unwritable) -> Endpoint<[Item]> {
            endpoint(.get, "/tagged", "Items with a tag") { Header("X-Tag", tag) }
        }
        static func page(size: Int? = nil) -> Endpoint<[Item]> {
            endpoint(.get, "/page", "A page of items") {
                Query("size", size, .integer(minimum: 1, maximum: 100), default: 20)
            }
        }

        static var samples: [any EndpointDescribing] {
            [item(id: .init(id: 1)), search(term: .init(id: 1)), tagged(tag: .init(id: 1)), page()]
        }
    }

    static let base = URL(string: "http://127.0.0.1:9")!

    @Test(arguments: [
        ("path parameter \"id\"", BrokenAPI.item(id: .init(id: 1)) as any EndpointDescribing),
        ("query parameter \"term\"", BrokenAPI.search(term: .init(id: 1))),
        ("header parameter \"X-Tag\"", BrokenAPI.tagged(tag: .init(id: 1))),
    ])
    func aValueThatCannotBeEncodedFailsTheCallNamingItAndTheCause(
        parameter: String, endpoint: any EndpointDescribing
    ) {
        let error = #expect(throws: CourierError.self) { try endpoint.makeRequest(baseURL: Self.base) }
        #expect(error?.code == .invalidParameters)
        #expect(
            error?.message.hasPrefix("\(parameter) cannot be encoded: ") == true,
            "\(String(describing: error))")
        #expect(error?.message.contains("no text form") == true, "\(String(describing: error))")
        #expect(error?.underlying != nil)
    }

    @Test func aNilQueryValueSendsNothingAndTheDefaultStaysDeclared() throws {
        let request = try BrokenAPI.page().makeRequest(baseURL: Self.base)
        #expect(request.url.absoluteString == "http://127.0.0.1:9/page")
        #expect(BrokenAPI.page().arguments == [:])
        #expect(try BrokenAPI.page(size: 5).makeRequest(baseURL: Self.base).url.query == "size=5")
        let size = try #require(BrokenAPI.page().operation.parameters.first)
        #expect(size.defaultValue == "20")
        #expect(!size.required)
    }
}
