import CourierContract
import CourierContractModel
import CourierPrimitives
import Foundation

extension MatchingRules {
    /// Body rules for `value`, a body of `schema`: a type matcher for each value, a regex (with a
    /// type matcher) for a format, pattern, string length or enumeration, integer, number and
    /// boolean matchers, and arrays of any length (`min` 0) whose items follow the item schema.
    /// The example values themselves are not required; only what the schema declares is.
    ///
    /// - Parameters:
    ///   - schema: the body's declared schema.
    ///   - value: the body as exchanged (its members decide which paths get rules).
    /// - Returns: the rules, keyed by JSON path (`$.items[*].id`).
    public static func bodyRules(for schema: Schema, value: JSONValue) -> [String: RuleList] {
        var rules: [String: RuleList] = [:]
        derive(schema, value, path: "$", into: &rules)
        return rules
    }

    /// A rule for a value of `schema` that is not structured, such as a path or query parameter:
    /// nil when the schema says nothing a matcher could hold.
    /// - Parameter schema: the parameter's schema.
    public static func textRule(for schema: Schema) -> MatchingRule? {
        switch schema {
        case .model(_, let inner): textRule(for: inner)
        case .string(let rules): formatRegex(rules).map(MatchingRule.regex)
        case .integer: .regex("-?\\d+")
        case .number: .regex("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?")
        case .boolean: .regex("true|false")
        case .enumeration(let values):
            .regex(values.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|"))
        default: nil
        }
    }

    private static func derive(
        _ schema: Schema, _ value: JSONValue, path: String, into rules: inout [String: RuleList]
    ) {
        if value == .null {
            // An optional member sent as null: null or a value of the schema.
            if let rule = valueRule(for: schema, value: value) {
                rules[path] = RuleList([.null, rule], combine: .or)
            }
            return
        }
        switch schema {
        case .model(_, let inner):
            derive(inner, value, path: path, into: &rules)
        case .ref, .any, .anyOf, .oneOf:
            rules[path] = RuleList([.type])
        case .array(let item):
            rules[path] = RuleList([.typeBounded(min: 0, max: nil)])
            if case .array(let items) = value, let first = items.first {
                derive(item, first, path: path + "[*]", into: &rules)
            }
        case .object(let properties, _):
            rules[path] = RuleList([.type])
            guard case .object(let members) = value else { return }
            for property in properties {
                guard let member = members[property.name] else { continue }
                derive(property.schema, member, path: join(path, property.name), into: &rules)
            }
        case .map(let member):
            // Any keys: each value is matched by the first's rules.
            rules[path] = RuleList([.values])
            if case .object(let members) = value, let first = members.sorted(by: { $0.key < $1.key }).first {
                derive(member, first.value, path: path + ".*", into: &rules)
            }
        case .string, .integer, .number, .boolean, .enumeration:
            guard let rule = valueRule(for: schema, value: value) else { break }
            // Pact's verifiers match a regex against a number's text as well ("42" passes
            // `[A-Za-z0-9-]{1,64}`): with a type matcher beside it, a string stays a string.
            if case .regex = rule, case .string = value {
                rules[path] = RuleList([rule, .type])
            } else {
                rules[path] = RuleList([rule])
            }
        }
    }

    /// The matcher for one value of a scalar schema; a regex only when the value itself passes it
    /// (a recorded value that breaks its own schema gets a type matcher, not a rule it fails).
    private static func valueRule(for schema: Schema, value: JSONValue) -> MatchingRule? {
        switch schema {
        case .model(_, let inner): return valueRule(for: inner, value: value)
        case .string(let rules):
            if let regex = formatRegex(rules),
                value == .null || MatchingRule.regex(regex).failure(of: value, expected: value) == nil
            {
                return .regex(regex)
            }
            return value == .null ? .regex("[\\s\\S]*") : .type
        case .integer: return .integer
        case .number: return .number
        case .boolean: return .boolean
        case .enumeration(let values):
            return .regex(values.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|"))
        case .array, .object, .map, .any, .ref, .anyOf, .oneOf: return value == .null ? nil : .type
        }
    }

    /// The regular expression for a string's declared format or pattern, or else for its declared
    /// length (Pact has no length matcher): any characters, as many as declared.
    static func formatRegex(_ rules: Schema.StringRules) -> String? {
        switch rules.format {
        case "date-time":
            return
                "\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])T([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})"
        case "date": return "\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])"
        case "uuid": return "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
        case "email": return "[^@\\s]+@[^@\\s]+"
        case "uri": return "[A-Za-z][A-Za-z0-9+.-]*:[^\\s]*"
        default: break
        }
        guard var pattern = rules.pattern else {
            guard rules.minLength != nil || rules.maxLength != nil else { return nil }
            return "[\\s\\S]{\(rules.minLength ?? 0),\(rules.maxLength.map(String.init) ?? "")}"
        }
        if pattern.hasPrefix("^") { pattern.removeFirst() }
        if pattern.hasSuffix("$") { pattern.removeLast() }
        return pattern
    }

    private static func join(_ path: String, _ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        return plain ? "\(path).\(key)" : "\(path)['\(key)']"
    }
}
