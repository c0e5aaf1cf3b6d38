import CourierPrimitives
import Foundation

extension JSONValue {
    /// Parses JSON text, returning nil when it is not JSON.
    static func parseOrNil(_ text: String) -> JSONValue? {
        try? parse(Data(text.utf8))
    }

    /// Matching text: strings as themselves, everything else as JSON.
    var matchText: String {
        if case .string(let value) = self { return value }
        return text
    }

    /// Whether `values` written as one JSON array would take more than `budget` bytes, counted
    /// without writing them and stopped as soon as the count passes the budget. JSONPath results
    /// overlap (`$..id` over nested objects returns each subtree again), so their text can be far
    /// larger than the document they came from.
    static func serializedSize(of values: [JSONValue], exceeds budget: Int) -> Bool {
        var total = 2
        var pending = values[...].reversed().map { $0 }
        while let value = pending.popLast() {
            switch value {
            case .null, .bool: total += 5
            case .int, .double: total += 24
            case .string(let text): total += text.utf8.count + 3
            case .array(let items):
                total += 2
                pending.append(contentsOf: items.reversed())
            case .object(let members):
                total += 2
                for (key, member) in members {
                    total += key.utf8.count + 4
                    pending.append(member)
                }
            }
            if total > budget { return true }
        }
        return false
    }

    /// Equality that treats `1` and `1.0` as the same number.
    func jsonEquals(_ other: JSONValue) -> Bool {
        if let left = doubleValue, let right = other.doubleValue { return left == right }
        return self == other
    }
}
