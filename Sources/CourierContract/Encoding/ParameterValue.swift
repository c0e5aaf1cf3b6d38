import Courier
import Foundation

/// A typed, `Sendable` parameter value: what a `[String: Any]` dictionary would hold, without `Any`.
///
/// Write it with literals, or encode any `Encodable` model into one with
/// `ParameterValueEncoder`:
///
/// ```swift
/// let query: [String: ParameterValue] = ["q": "swift", "page": 2, "tags": ["a", "b"]]
/// ```
public enum ParameterValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// An explicit null.
    case null
    /// An ordered list.
    case array([ParameterValue])
    /// Named values. Encoders sort the keys, so output is deterministic.
    case object([String: ParameterValue])

    /// Encodes a model into a parameter value.
    /// - Throws: `CourierError` with code `.invalidParameters` when the model cannot be encoded.
    public init(encoding model: some Encodable) throws {
        self = try ParameterValueEncoder().encode(model)
    }

    /// The scalar as text, as query and form encoders write it; `nil` for null, arrays
    /// and objects.
    package var scalarText: String? {
        switch self {
        case .string(let string): string
        case .int(let int): String(int)
        case .double(let double): ParameterValue.text(for: double)
        case .bool(let bool): bool ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    static func text(for double: Double) -> String {
        if double.isFinite, double == double.rounded(), abs(double) < 1e15 {
            return String(Int64(double))
        }
        return String(double)
    }
}

extension ParameterValue: ExpressibleByStringLiteral {
    /// Creates a string value.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension ParameterValue: ExpressibleByIntegerLiteral {
    /// Creates an integer value.
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension ParameterValue: ExpressibleByFloatLiteral {
    /// Creates a floating-point value.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension ParameterValue: ExpressibleByBooleanLiteral {
    /// Creates a boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension ParameterValue: ExpressibleByNilLiteral {
    /// Creates `.null`.
    public init(nilLiteral: ()) { self = .null }
}

extension ParameterValue: ExpressibleByArrayLiteral {
    /// Creates an array value.
    public init(arrayLiteral elements: ParameterValue...) { self = .array(elements) }
}

extension ParameterValue: ExpressibleByDictionaryLiteral {
    /// Creates an object value. A repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, ParameterValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension ParameterValue: Codable {
    /// Writes the value as the JSON it naturally maps to.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .int(let int):
            var container = encoder.singleValueContainer()
            try container.encode(int)
        case .double(let double):
            var container = encoder.singleValueContainer()
            try container.encode(double)
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .array(let array):
            var container = encoder.unkeyedContainer()
            for element in array { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for key in object.keys.sorted() {
                if let value = object[key] { try container.encode(value, forKey: AnyCodingKey(key)) }
            }
        }
    }

    /// Reads any JSON value.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var object: [String: ParameterValue] = [:]
            for key in container.allKeys {
                object[key.stringValue] = try container.decode(ParameterValue.self, forKey: key)
            }
            self = .object(object)
        } else if var container = try? decoder.unkeyedContainer() {
            var array: [ParameterValue] = []
            while !container.isAtEnd { array.append(try container.decode(ParameterValue.self)) }
            self = .array(array)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let int = try? container.decode(Int.self) {
                self = .int(int)
            } else if let double = try? container.decode(Double.self) {
                self = .double(double)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }
}

/// A coding key made from any string or integer.
struct AnyCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init(stringValue: String) { self.init(stringValue) }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
