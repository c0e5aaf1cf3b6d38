import Courier
import CourierPrimitives
import Foundation

extension Schema {
    /// A value that this schema accepts, for examples and for a stub server that has nothing
    /// better to answer with: bounds, formats, prefixes and allowed characters are respected.
    public func example() -> JSONValue {
        switch self {
        case .model(_, let schema): return schema.example()
        case .ref, .any: return .object([:])
        case .boolean: return .bool(true)
        case .number: return .double(1.5)
        case .integer(let minimum, let maximum):
            let value = max(minimum ?? 1, min(maximum ?? Int.max, 1))
            return .int(Int64(value))
        case .enumeration(let values): return values.first.map(JSONValue.string) ?? .null
        case .string(let rules): return .string(rules.example())
        case .array(let item): return .array([item.example()])
        case .map(let member): return .object(["key": member.example()])
        case .object(let properties, _):
            var members: [String: JSONValue] = [:]
            for property in properties { members[property.name] = property.schema.example() }
            return .object(members)
        }
    }
}

extension Schema.StringRules {
    /// A string these rules accept.
    func example() -> String {
        switch format {
        case "date-time": return "2026-01-01T00:00:00Z"
        case "uri": return "https://example.com/resource"
        case "email": return "user@example.com"
        case "uuid": return "6BA7B810-9DAD-11D1-80B4-00C04FD430C8"
        case "byte": return "AAAA"
        default: break
        }
        let prefix = self.prefix ?? ""
        let filler =
            allowed.map { set in set.contains("1") ? "1" : set.sorted().first.map(String.init) ?? "x" } ?? "x"
        let length = max(minLength ?? 1, 1) - prefix.count
        var text = prefix + String(repeating: filler, count: max(length, prefix.isEmpty ? 1 : 1))
        if let maxLength, text.count > maxLength { text = String(text.prefix(maxLength)) }
        return text
    }
}
