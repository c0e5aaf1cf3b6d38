import Courier
import CourierPrimitives
import Foundation

extension Schema {
    /// Checks `value` against the schema.
    ///
    /// - Parameters:
    ///   - value: the JSON value.
    ///   - path: where the value sits, for messages (`body.items[2].id`).
    /// - Returns: the first problem as (path, reason), or `nil` when the value conforms.
    package func violation(of value: JSONValue, at path: String) -> (path: String, reason: String)? {
        switch self {
        case .model(_, let schema):
            return schema.violation(of: value, at: path)
        case .ref, .any:
            return nil
        case .number:
            switch value {
            case .int, .double: return nil
            default: return (path, "must be a number, not \(value.typeName)")
            }
        case .enumeration(let allowed):
            guard case .string(let text) = value, allowed.contains(text) else {
                return (path, "must be one of \(allowed.joined(separator: ", "))")
            }
            return nil
        case .map(let member):
            guard case .object(let members) = value else {
                return (path, "must be an object, not \(value.typeName)")
            }
            for (name, child) in members.sorted(by: { $0.key < $1.key }) {
                if let problem = member.violation(of: child, at: Schema.join(path, name)) { return problem }
            }
            return nil
        case .boolean:
            if case .bool = value { return nil }
            return (path, "must be a boolean, not \(value.typeName)")
        case .integer(let minimum, let maximum):
            guard case .int(let number) = value else {
                return (path, "must be an integer, not \(value.typeName)")
            }
            return Schema.boundsViolation(number, minimum: minimum, maximum: maximum).map { (path, $0) }
        case .string(let rules):
            guard case .string(let text) = value else {
                return (path, "must be a string, not \(value.typeName)")
            }
            return rules.violation(of: text).map { (path, $0) }
        case .array(let item):
            guard case .array(let items) = value else {
                return (path, "must be an array, not \(value.typeName)")
            }
            for (index, element) in items.enumerated() {
                if let problem = item.violation(of: element, at: "\(path)[\(index)]") { return problem }
            }
            return nil
        case .object(let properties, let required):
            guard case .object(let members) = value else {
                return (path, "must be an object, not \(value.typeName)")
            }
            for name in required where members[name] == nil || members[name] == .null {
                return (Schema.join(path, name), "is required")
            }
            for property in properties {
                guard let member = members[property.name], member != .null else { continue }
                if let problem = property.schema.violation(of: member, at: Schema.join(path, property.name)) {
                    return problem
                }
            }
            return nil
        }
    }

    /// Parses and checks a path, query or header value, which arrive as text.
    /// - Returns: the reason it breaks the schema, or `nil`.
    package func violation(ofText text: String) -> String? {
        switch self {
        case .integer(let minimum, let maximum):
            guard let number = Int64(text) else { return "must be an integer, not \(text.debugDescription)" }
            return Schema.boundsViolation(number, minimum: minimum, maximum: maximum)
        case .string(let rules):
            return rules.violation(of: text)
        case .boolean:
            return text == "true" || text == "false" ? nil : "must be true or false"
        case .number:
            return Double(text) == nil ? "must be a number, not \(text.debugDescription)" : nil
        case .enumeration(let allowed):
            return allowed.contains(text) ? nil : "must be one of \(allowed.joined(separator: ", "))"
        case .model(_, let schema):
            return schema.violation(ofText: text)
        case .any, .ref:
            return nil
        case .array, .object, .map:
            return "must not be a structured value"
        }
    }

    static func boundsViolation(_ number: Int64, minimum: Int?, maximum: Int?) -> String? {
        if let minimum, number < minimum { return "must be at least \(minimum), not \(number)" }
        if let maximum, number > maximum { return "must be at most \(maximum), not \(number)" }
        return nil
    }

    static func join(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : path + "." + name
    }
}

extension Schema.StringRules {
    /// The reason `text` breaks these rules, or `nil`.
    package func violation(of text: String) -> String? {
        let count = text.unicodeScalars.count
        if let minLength, count < minLength { return "must have at least \(minLength) characters" }
        if let maxLength, count > maxLength { return "must have at most \(maxLength) characters" }
        var rest = Substring(text)
        if let prefix {
            guard text.hasPrefix(prefix) else { return "must start with \(prefix.debugDescription)" }
            rest = rest.dropFirst(prefix.count)
        }
        if noLeadingDot, rest.hasPrefix(".") { return "must not start with \".\"" }
        if let allowed, let bad = rest.first(where: { !allowed.contains($0) }) {
            return "must not contain \(String(bad).debugDescription)"
        }
        switch format {
        case "email":
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            if parts.count < 2 || parts.first?.isEmpty == true || parts.last?.isEmpty == true {
                return "must be an email address"
            }
        case "uri":
            guard let url = URL(string: text), url.scheme != nil else { return "must be an absolute URI" }
        case "date-time":
            if ISO8601DateFormatter().date(from: text) == nil { return "must be an RFC 3339 date-time" }
        default:
            break
        }
        return nil
    }
}
