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

    /// Equality that treats `1` and `1.0` as the same number.
    func jsonEquals(_ other: JSONValue) -> Bool {
        if let left = doubleValue, let right = other.doubleValue { return left == right }
        return self == other
    }
}
