import Courier
import CourierContract
import Foundation
import Testing

struct ParameterValueEncoderTests {
    struct Nested: Encodable, Sendable {
        struct Inner: Encodable, Sendable {
            var id: UInt64
            var score: Float
        }
        var name: String
        var inner: Inner
        var items: [Inner]
        var optional: String?
        var data: Data
        var decimal: Decimal
    }

    @Test func encodesNestedModels() throws {
        let model = Nested(
            name: "n", inner: .init(id: 1, score: 0.1), items: [.init(id: UInt64.max, score: 2)],
            optional: nil, data: Data([1, 2]), decimal: Decimal(string: "1.10")!)
        let value = try ParameterValueEncoder().encode(model)
        #expect(
            value == [
                "name": "n", "inner": ["id": 1, "score": 0.1],
                "items": [["id": .string("18446744073709551615"), "score": 2.0]],
                "data": "AQI=", "decimal": "1.1",
            ])
    }

    @Test func secondsSince1970Dates() throws {
        let encoder = ParameterValueEncoder(dateEncoding: .secondsSince1970)
        #expect(try encoder.encode(["at": Date(timeIntervalSince1970: 5)]) == ["at": 5.0])
    }

    @Test func literalsBuildValues() {
        let value: ParameterValue = ["a": [1, "two", 3.5, false, nil]]
        #expect(
            value == .object(["a": .array([.int(1), .string("two"), .double(3.5), .bool(false), .null])]))
    }

    @Test func roundTripsThroughJSON() throws {
        let value: ParameterValue = ["a": [1, "x", true, nil, ["b": 2.5]]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(ParameterValue.self, from: data) == value)
    }

    /// Hides a value's type from the encoder's shortcut for scalars, so it takes the long way.
    struct Boxed<Value: Encodable>: Encodable {
        var value: Value
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    @Test func scalarsGiveTheSameValueWithAndWithoutTheShortcut() throws {
        let encoder = ParameterValueEncoder()
        for value in ["", "a b", "ü"] {
            #expect(try encoder.encode(value) == encoder.encode(Boxed(value: value)))
        }
        for value in [0, -1, Int.max, Int.min] {
            #expect(try encoder.encode(value) == encoder.encode(Boxed(value: value)))
        }
        for value in [true, false] {
            #expect(try encoder.encode(value) == encoder.encode(Boxed(value: value)))
        }
        for value in [0.5, -0.0, 1e300, 3] as [Double] {
            #expect(try encoder.encode(value) == encoder.encode(Boxed(value: value)))
        }
        let none: Int? = nil
        let some: Int? = 4
        #expect(try encoder.encode(none) == encoder.encode(Boxed(value: none)))
        #expect(try encoder.encode(some) == encoder.encode(Boxed(value: some)))
        #expect(try encoder.encode(none) == .null)
    }
}
