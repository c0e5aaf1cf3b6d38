import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import Foundation
import Testing

/// A declaration states what a document can: several success statuses or none, an error body whose
/// model is the operation's own, a model that is one of several schemas, a number with bounds.
struct EndpointResponsesTests {
    struct Problem: Codable, Sendable { var title: String }
    struct Missing: Codable, Sendable { var error: String }
    struct Card: Codable, Sendable { var number: String }
    struct BankAccount: Codable, Sendable {
        var iban: String
        var holder: String?
    }

    enum Payment: Codable, Sendable, SchemaAlternatives {
        case card(Card)
        case bankAccount(BankAccount)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let card = try? container.decode(Card.self) {
                self = .card(card)
            } else {
                self = .bankAccount(try container.decode(BankAccount.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .card(let card): try container.encode(card)
            case .bankAccount(let account): try container.encode(account)
            }
        }

        static var alternativeTypes: [any Decodable.Type] { [Card.self, BankAccount.self] }
        static var exclusiveAlternatives: Bool { true }
    }

    struct Order: Codable, Sendable, SchemaDescribing {
        var score: Double
        var payment: Payment
        static let propertySchemas: [String: Schema] = ["score": .number(minimum: 0, maximum: 2.5)]
    }

    enum OrdersAPI: API {
        static var errorSchema: Schema? { .of(Problem.self) }
        static var declaresRefusals: Bool { false }

        static func ping() -> Endpoint<EmptyResponse> {
            endpoint(.get, "/ping", "Answers with anything", status: nil) {}
        }

        static func create(body: Order) -> Endpoint<Order> {
            endpoint(.post, "/orders", "Places an order", otherStatuses: [202], errors: [400]) { Body(body) }
        }

        static func order(id: String) -> Endpoint<Order> {
            endpoint(
                .get, "/orders/{id}", "One order", errors: [400, 404], errorSchemas: [404: .of(Missing.self)]
            ) { Path("id", id) }
        }

        static var samples: [any EndpointDescribing] {
            [ping(), create(body: .init(score: 1, payment: .card(.init(number: "4242")))), order(id: "o1")]
        }
    }

    @Test func aDeclarationStatesSeveralSuccessStatusesOrNone() throws {
        let ping = OrdersAPI.ping().operation
        #expect(ping.successes.isEmpty)
        #expect(ping.responses.isEmpty)
        #expect(ping.successStatuses == [200], "a call of it is checked against 200")
        let create = OrdersAPI.create(body: .init(score: 1, payment: .card(.init(number: "1")))).operation
        #expect(create.successes.map(\.status) == [200, 202])
        #expect(create.successStatuses == [200, 202])
        #expect(create.successes.allSatisfy { $0.schema == create.success.schema })
        #expect(
            create.responseViolations(status: 202, contentType: "application/json", body: Data()).contains {
                $0.rule == "json"
            }, "a 202 is checked as a success: its body, not its status")

        let document = OpenAPIWriter.make(title: "Orders", operations: OrdersAPI.operations)
        let paths = try #require(document["paths"])
        #expect(paths["/ping"]?["get"]?["responses"] == nil, "no responses are written for none")
        guard case .object(let responses)? = paths["/orders"]?["post"]?["responses"] else {
            Issue.record("no responses for POST /orders")
            return
        }
        #expect(responses.keys.sorted() == ["200", "202", "400"])
    }

    @Test func anErrorBodyMayHaveTheOperationsOwnModel() throws {
        let order = OrdersAPI.order(id: "o1").operation
        #expect(order.response(for: 400)?.schema == Schema.of(Problem.self))
        #expect(order.response(for: 404)?.schema == Schema.of(Missing.self))
        let violations = order.responseViolations(
            status: 404, contentType: "application/json", body: Data(#"{"title":"gone"}"#.utf8),
            expected: [404])
        #expect(
            violations.map(\.rule) == ["required"], "a 404 is checked against its own model: \(violations)")
    }

    @Test func aModelOfSeveralSchemasListsEveryBranch() throws {
        guard case .model(_, .oneOf(let branches)) = Schema.of(Payment.self) else {
            Issue.record("not a named oneOf: \(Schema.of(Payment.self))")
            return
        }
        #expect(branches == [Schema.of(Card.self), Schema.of(BankAccount.self)])
        let order = Schema.of(Order.self)
        #expect(
            order.violation(
                of: .object(["score": .int(1), "payment": .object(["iban": .string("DE1")])]), at: "o") == nil
        )
        #expect(
            order.violation(
                of: .object(["score": .int(1), "payment": .object(["holder": .string("A")])]), at: "o")
                != nil, "a value of neither branch is refused")
    }

    @Test func aNumbersBoundsAreWrittenAndChecked() throws {
        let order = Schema.of(Order.self)
        #expect(
            order.violation(
                of: .object(["score": .double(2.6), "payment": .object(["number": .string("1")])]), at: "o")
                != nil)
        let (schema, _) = Schema.number(minimum: 0, maximum: 2.5).jsonSchema()
        #expect(schema == .object(["type": .string("number"), "minimum": .int(0), "maximum": .double(2.5)]))
    }
}
