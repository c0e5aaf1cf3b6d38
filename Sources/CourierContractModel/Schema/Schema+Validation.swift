import Courier
import CourierPrimitives
import Foundation

/// One way a JSON value breaks a schema: where, which rule, and why.
package struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// The kind of rule broken, for reports and tests.
    package enum Rule: String, Sendable, Hashable {
        /// A required property is absent.
        case required
        /// A required property is `null`.
        case null
        /// The value is of another JSON type.
        case type
        /// A string outside the declared enumeration.
        case enumeration = "enum"
        /// A string that is not of its format (date-time, date, time, uuid, email, uri, ipv4, ipv6, byte).
        case format
        /// A string too short or too long.
        case length
        /// A number outside its bounds.
        case bounds
        /// A string breaking its pattern (prefix, allowed characters).
        case pattern
        /// An object member the schema does not list (reported only when asked).
        case undeclared
    }

    /// Where the value sits, such as `response.items[2].id`.
    package var path: String
    /// The rule broken.
    package var rule: Rule
    /// Why, for people.
    package var reason: String

    package var description: String { "\(path) \(reason)" }
}

extension Schema {
    /// Checks `value` against the schema.
    ///
    /// - Parameters:
    ///   - value: the JSON value.
    ///   - path: where the value sits, for messages (`body.items[2].id`).
    /// - Returns: the first problem as (path, reason), or `nil` when the value conforms.
    package func violation(of value: JSONValue, at path: String) -> (path: String, reason: String)? {
        violations(of: value, at: path, limit: 1).first.map { ($0.path, $0.reason) }
    }

    /// Every way `value` breaks the schema, in document order (at most `limit`).
    /// - Parameters:
    ///   - value: the JSON value.
    ///   - path: where the value sits, for messages (`response.items[2].id`).
    ///   - limit: the most violations to collect.
    ///   - undeclared: whether a member of an object that its schema does not list is a violation
    ///     (by default unknown members are allowed and ignored).
    package func violations(
        of value: JSONValue, at path: String, limit: Int = 1000, undeclared: Bool = false
    ) -> [SchemaViolation] {
        var found: [SchemaViolation] = []
        collect(value, at: path, into: &found, limit: limit, undeclared: undeclared)
        return found
    }

    private func collect(
        _ value: JSONValue, at path: String, into found: inout [SchemaViolation], limit: Int, undeclared: Bool
    ) {
        func add(_ rule: SchemaViolation.Rule, _ reason: String, at where: String = path) {
            if found.count < limit {
                found.append(SchemaViolation(path: `where`, rule: rule, reason: reason))
            }
        }
        guard found.count < limit else { return }
        switch self {
        case .model(_, let schema):
            schema.collect(value, at: path, into: &found, limit: limit, undeclared: undeclared)
        case .ref, .any:
            return
        case .number:
            switch value {
            case .int, .double: return
            default: add(.type, "must be a number, not \(value.typeName)")
            }
        case .enumeration(let allowed):
            guard case .string(let text) = value else {
                return add(.type, "must be one of \(allowed.joined(separator: ", ")), not \(value.typeName)")
            }
            if !allowed.contains(text) {
                add(
                    .enumeration,
                    "must be one of \(allowed.joined(separator: ", ")), not \(text.debugDescription)")
            }
        case .map(let member):
            guard case .object(let members) = value else {
                return add(.type, "must be an object, not \(value.typeName)")
            }
            for (name, child) in members.sorted(by: { $0.key < $1.key }) {
                member.collect(
                    child, at: Schema.join(path, name), into: &found, limit: limit, undeclared: undeclared)
            }
        case .boolean:
            if case .bool = value { return }
            add(.type, "must be a boolean, not \(value.typeName)")
        case .integer(let minimum, let maximum):
            // A number with no fractional part is an integer, as JSON Schema counts them (`1.0`).
            guard let number = Schema.integer(value) else {
                return add(.type, "must be an integer, not \(value.typeName)")
            }
            if let reason = Schema.boundsViolation(number, minimum: minimum, maximum: maximum) {
                add(.bounds, reason)
            }
        case .string(let rules):
            guard case .string(let text) = value else {
                return add(.type, "must be a string, not \(value.typeName)")
            }
            if let (rule, reason) = rules.ruleViolation(of: text) { add(rule, reason) }
        case .array(let item):
            guard case .array(let items) = value else {
                return add(.type, "must be an array, not \(value.typeName)")
            }
            for (index, element) in items.enumerated() {
                item.collect(
                    element, at: "\(path)[\(index)]", into: &found, limit: limit, undeclared: undeclared)
            }
        case .object(let properties, let required):
            guard case .object(let members) = value else {
                return add(.type, "must be an object, not \(value.typeName)")
            }
            for name in required {
                if members[name] == nil {
                    add(.required, "is required", at: Schema.join(path, name))
                } else if members[name] == .null {
                    add(.null, "is required, not null", at: Schema.join(path, name))
                }
            }
            if undeclared {
                let declared = Set(properties.map(\.name))
                for name in members.keys.sorted() where !declared.contains(name) {
                    add(.undeclared, "is not in the declaration", at: Schema.join(path, name))
                }
            }
            for property in properties {
                guard let member = members[property.name], member != .null else { continue }
                property.schema.collect(
                    member, at: Schema.join(path, property.name), into: &found, limit: limit,
                    undeclared: undeclared)
            }
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

    /// The integer a JSON number is, when it has no fractional part.
    static func integer(_ value: JSONValue) -> Int64? {
        switch value {
        case .int(let number): number
        case .double(let number): Int64(exactly: number)
        default: nil
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
    package func violation(of text: String) -> String? { ruleViolation(of: text)?.reason }

    /// The rule `text` breaks and why, or `nil`.
    func ruleViolation(of text: String) -> (rule: SchemaViolation.Rule, reason: String)? {
        let count = text.unicodeScalars.count
        if let minLength, count < minLength { return (.length, "must have at least \(minLength) characters") }
        if let maxLength, count > maxLength { return (.length, "must have at most \(maxLength) characters") }
        var rest = Substring(text)
        if let prefix {
            guard text.hasPrefix(prefix) else {
                return (.pattern, "must start with \(prefix.debugDescription)")
            }
            rest = rest.dropFirst(prefix.count)
        }
        if noLeadingDot, rest.hasPrefix(".") { return (.pattern, "must not start with \".\"") }
        if let allowed, let bad = rest.first(where: { !allowed.contains($0) }) {
            return (.pattern, "must not contain \(String(bad).debugDescription)")
        }
        if let format, StringFormats.check(format, text) == false {
            return (.format, Self.formatRule[format] ?? "must be a valid \(format)")
        }
        return nil
    }

    /// What a value of each checked format must be, as a violation says it.
    private static let formatRule: [String: String] = [
        "email": "must be an email address", "uri": "must be an absolute URI",
        "date-time": "must be an RFC 3339 date-time", "uuid": "must be a UUID",
    ]
}
