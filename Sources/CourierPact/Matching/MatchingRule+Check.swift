import CourierPrimitives
import Foundation

extension RuleList {
    /// Why `actual` fails these rules against `expected`, or nil when it passes (every matcher for
    /// AND, any one for OR).
    func failure(of actual: JSONValue, expected: JSONValue, fromText: Bool = false) -> String? {
        let failures = matchers.map { $0.failure(of: actual, expected: expected, fromText: fromText) }
        switch combine {
        case .and: return failures.compactMap { $0 }.first
        case .or:
            return failures.contains { $0 == nil } ? nil : failures.compactMap { $0 }.joined(separator: "; ")
        }
    }

    /// Whether a type-like matcher here means arrays are compared item by item against the first
    /// expected item rather than index by index.
    var comparesItemsByTemplate: Bool {
        matchers.contains {
            switch $0 {
            case .type, .typeBounded, .eachValue, .values: true
            default: false
            }
        }
    }
}

extension MatchingRule {
    /// Why `actual` fails this matcher, or nil when it passes. Structure (the members of objects,
    /// the items of arrays) is compared by the caller; this checks the value itself. `fromText`
    /// says the value is text by nature (a header, a query parameter, a status), so that text of
    /// a number passes the number matchers; in a JSON body, the string `"3"` is not an integer.
    func failure(of actual: JSONValue, expected: JSONValue, fromText: Bool = false) -> String? {
        switch self {
        case .equality:
            return Self.equal(actual, expected)
                ? nil : "Expected \(expected.text) to be equal to \(actual.text)"
        case .regex(let pattern):
            guard let text = Self.text(actual) else {
                return "Expected \(actual.text) to match '\(pattern)', but it is \(actual.typeName)"
            }
            return Self.matches(text, pattern) ? nil : "Expected '\(text)' to match '\(pattern)'"
        case .type:
            return Self.sameType(actual, expected)
                ? nil
                : "Expected \(actual.text) (\(actual.typeName)) to be the same type as \(expected.text) (\(expected.typeName))"
        case .typeBounded(let min, let max):
            guard Self.sameType(actual, expected) else {
                return
                    "Expected \(actual.text) (\(actual.typeName)) to be the same type as \(expected.text) (\(expected.typeName))"
            }
            guard case .array(let items) = actual else { return nil }
            if let min, items.count < min {
                return "Expected an array with at least \(min) items, but it has \(items.count)"
            }
            if let max, items.count > max {
                return "Expected an array with at most \(max) items, but it has \(items.count)"
            }
            return nil
        case .include(let part):
            guard let text = Self.text(actual), text.contains(part) else {
                return "Expected \(actual.text) to include '\(part)'"
            }
            return nil
        case .integer:
            switch actual {
            case .int: return nil
            case .string(let text) where fromText && Int64(text) != nil: return nil
            default: return "Expected \(actual.text) to be an integer"
            }
        case .decimal:
            switch actual {
            case .double: return nil
            case .string(let text) where fromText && text.contains(".") && Double(text) != nil: return nil
            default: return "Expected \(actual.text) to be a decimal number"
            }
        case .number:
            switch actual {
            case .int, .double: return nil
            case .string(let text) where fromText && Double(text) != nil: return nil
            default: return "Expected \(actual.text) to be a number"
            }
        case .boolean:
            switch actual {
            case .bool: return nil
            case .string(let text) where fromText && (text == "true" || text == "false"): return nil
            default: return "Expected \(actual.text) to be a boolean"
            }
        case .null:
            return actual == .null ? nil : "Expected \(actual.text) to be null"
        case .date(let format), .time(let format), .dateTime(let format):
            guard case .string(let text) = actual, Self.matches(text, DateFormatPattern.regex(for: format))
            else {
                return "Expected \(actual.text) to match the format '\(format)'"
            }
            return nil
        case .values:
            if case .object = actual { return nil }
            return "Expected \(actual.text) to be an object"
        case .notEmpty:
            switch actual {
            case .null, .string(""), .array([]), .object([:]):
                return "Expected \(actual.text) not to be empty"
            default: return nil
            }
        case .contentType:
            return nil  // checked against the body's content type, not a value
        case .eachKey(let rules):
            guard case .object(let members) = actual else { return "Expected \(actual.text) to be an object" }
            for key in members.keys.sorted() {
                for rule in rules {
                    if let failure = rule.failure(of: .string(key), expected: .string(key)) {
                        return "key '\(key)': \(failure)"
                    }
                }
            }
            return nil
        case .eachValue(let rules):
            let values: [JSONValue]
            switch actual {
            case .object(let members): values = members.sorted { $0.key < $1.key }.map(\.value)
            case .array(let items): values = items
            default: return "Expected \(actual.text) to be an object or an array"
            }
            let template = Self.firstValue(of: expected) ?? .null
            for value in values {
                for rule in rules {
                    if let failure = rule.failure(of: value, expected: template) { return failure }
                }
            }
            return nil
        case .statusCode(let status):
            guard let code = actual.intValue else { return "Expected a status code, not \(actual.text)" }
            return status.contains(code) ? nil : "Expected status \(code) to be \(status.description)"
        case .unsupported(let definition):
            return "the matcher \(definition.text) is not supported by this verifier"
        }
    }

    static func firstValue(of value: JSONValue) -> JSONValue? {
        switch value {
        case .array(let items): items.first
        case .object(let members): members.sorted { $0.key < $1.key }.first?.value
        default: nil
        }
    }

    /// The text of a string, number or boolean (what a regex sees).
    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        default: nil
        }
    }

    static func sameType(_ actual: JSONValue, _ expected: JSONValue) -> Bool {
        switch (actual, expected) {
        case (.int, .int), (.double, .double), (.int, .double), (.double, .int): true
        default: actual.typeName == expected.typeName
        }
    }

    static func equal(_ actual: JSONValue, _ expected: JSONValue) -> Bool {
        if let left = actual.doubleValue, let right = expected.doubleValue, actual.typeName == "number",
            expected.typeName == "number"
        {
            return left == right
        }
        return actual == expected
    }

    /// Whether the whole of `text` matches `pattern`.
    static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: "^(?:\(pattern))$") else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

extension MatchingRule.StatusClass: CustomStringConvertible {
    /// Whether `code` is in the class.
    public func contains(_ code: Int) -> Bool {
        switch self {
        case .information: (100...199).contains(code)
        case .success: (200...299).contains(code)
        case .redirect: (300...399).contains(code)
        case .clientError: (400...499).contains(code)
        case .serverError: (500...599).contains(code)
        case .nonError: (100...399).contains(code)
        case .error: (400...599).contains(code)
        case .codes(let codes): codes.contains(code)
        }
    }

    public var description: String {
        switch self {
        case .codes(let codes): "one of \(codes.map(String.init).joined(separator: ", "))"
        default: "a \(json.stringValue ?? "") status"
        }
    }
}
