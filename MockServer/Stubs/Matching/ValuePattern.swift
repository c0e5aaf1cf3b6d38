import CourierPrimitives
import Foundation

/// One of WireMock's value matchers (`equalTo`, `contains`, `matches`, `equalToJson`, ...).
indirect enum ValuePattern: Sendable {
    case equalTo(String, caseInsensitive: Bool)
    case binaryEqualTo(Data)
    case contains(String)
    case doesNotContain(String)
    case matches(RegexBox)
    case doesNotMatch(RegexBox)
    case absent
    case equalToJson(JSONValue, ignoreArrayOrder: Bool, ignoreExtraElements: Bool)
    case matchesJsonPath(JSONPath, then: ValuePattern?)
    case and([ValuePattern])
    case or([ValuePattern])

    /// Whether the pattern compares text without a regular expression or a JSON document.
    var isCheap: Bool {
        switch self {
        case .equalTo, .binaryEqualTo, .contains, .doesNotContain, .absent: true
        case .matches, .doesNotMatch, .equalToJson, .matchesJsonPath: false
        case .and(let patterns), .or(let patterns): patterns.allSatisfy(\.isCheap)
        }
    }

    /// A mapping file problem, with where it is.
    struct InvalidMapping: Error, CustomStringConvertible {
        var description: String
    }

    /// The operator keys this parser understands, for error messages.
    static let operators = [
        "equalTo", "binaryEqualTo", "contains", "doesNotContain", "matches", "doesNotMatch", "absent",
        "equalToJson",
        "matchesJsonPath", "and", "or",
    ]

    /// The option keys each operator accepts beside itself.
    static let modifiers: [String: [String]] = [
        "equalTo": ["caseInsensitive"], "equalToJson": ["ignoreArrayOrder", "ignoreExtraElements"],
    ]

    /// Reads a pattern object such as `{"equalTo": "x", "caseInsensitive": true}`.
    static func parse(_ json: JSONValue, at location: String) throws -> ValuePattern {
        guard case .object(let members) = json else {
            throw InvalidMapping(
                description: "\(location): a matcher must be an object such as {\"equalTo\": \"x\"}")
        }
        let present = operators.filter { members[$0] != nil }
        if present.count > 1 {
            throw InvalidMapping(
                description:
                    "\(location).\(present[1]): one matcher per object (\(present[0]) is already given)")
        }
        if let name = present.first {
            let allowed = [name] + (modifiers[name] ?? [])
            if let extra = members.keys.sorted().first(where: { !allowed.contains($0) }) {
                let accepted = allowed.count > 1 ? allowed.dropFirst().joined(separator: ", ") : "none"
                throw InvalidMapping(
                    description: "\(location).\(extra): unknown key for \(name) (its options: \(accepted))")
            }
        }
        func string(_ key: String) throws -> String {
            guard let value = members[key] else {
                throw InvalidMapping(description: "\(location): missing \(key)")
            }
            switch value {
            case .string(let text): return text
            case .int, .double, .bool: return value.text
            default: throw InvalidMapping(description: "\(location): \(key) must be a string")
            }
        }
        if members["equalTo"] != nil {
            return .equalTo(
                try string("equalTo"), caseInsensitive: members["caseInsensitive"]?.boolValue ?? false)
        }
        if members["binaryEqualTo"] != nil {
            guard let data = Data(base64Encoded: try string("binaryEqualTo")) else {
                throw InvalidMapping(description: "\(location): binaryEqualTo must be base64")
            }
            return .binaryEqualTo(data)
        }
        if members["contains"] != nil { return .contains(try string("contains")) }
        if members["doesNotContain"] != nil { return .doesNotContain(try string("doesNotContain")) }
        if members["matches"] != nil { return .matches(try regex(try string("matches"), location)) }
        if members["doesNotMatch"] != nil {
            return .doesNotMatch(try regex(try string("doesNotMatch"), location))
        }
        if let absent = members["absent"] {
            guard absent.boolValue == true else {
                throw InvalidMapping(description: "\(location): absent must be true")
            }
            return .absent
        }
        if let expected = members["equalToJson"] {
            var document = expected
            if case .string(let text) = expected {
                guard let parsed = JSONValue.parseOrNil(text) else {
                    throw InvalidMapping(description: "\(location): equalToJson is not valid JSON")
                }
                document = parsed
            }
            return .equalToJson(
                document, ignoreArrayOrder: members["ignoreArrayOrder"]?.boolValue ?? false,
                ignoreExtraElements: members["ignoreExtraElements"]?.boolValue ?? false)
        }
        if let path = members["matchesJsonPath"] {
            switch path {
            case .string(let expression):
                return .matchesJsonPath(try jsonPath(expression, location), then: nil)
            case .object(let inner):
                guard let expression = inner["expression"]?.stringValue else {
                    throw InvalidMapping(description: "\(location): matchesJsonPath needs an expression")
                }
                var rest = inner
                rest["expression"] = nil
                let then = rest.isEmpty ? nil : try parse(.object(rest), at: location + ".matchesJsonPath")
                return .matchesJsonPath(try jsonPath(expression, location), then: then)
            default:
                throw InvalidMapping(
                    description: "\(location): matchesJsonPath must be a string or an object")
            }
        }
        for key in ["and", "or"] {
            if let list = members[key] {
                guard case .array(let items) = list else {
                    throw InvalidMapping(description: "\(location): \(key) must be an array of matchers")
                }
                let patterns = try items.enumerated().map {
                    try parse($0.element, at: "\(location).\(key)[\($0.offset)]")
                }
                return key == "and" ? .and(patterns) : .or(patterns)
            }
        }
        throw InvalidMapping(
            description:
                "\(location): unknown matcher \(members.keys.sorted()); use one of \(operators.joined(separator: ", "))"
        )
    }

    private static func regex(_ pattern: String, _ location: String) throws -> RegexBox {
        do {
            return try RegexBox(pattern)
        } catch {
            throw InvalidMapping(description: "\(location): invalid regular expression '\(pattern)'")
        }
    }

    private static func jsonPath(_ expression: String, _ location: String) throws -> JSONPath {
        do {
            return try JSONPath(expression)
        } catch {
            throw InvalidMapping(description: "\(location): invalid JSONPath '\(expression)': \(error)")
        }
    }

    /// Whether `value` (nil when absent) satisfies the pattern.
    func matches(_ value: String?) -> Bool {
        if case .absent = self { return value == nil }
        if case .or(let patterns) = self { return patterns.contains { $0.matches(value) } }
        if case .and(let patterns) = self { return patterns.allSatisfy { $0.matches(value) } }
        guard let value else { return false }
        switch self {
        case .equalTo(let expected, let caseInsensitive):
            return caseInsensitive ? expected.lowercased() == value.lowercased() : expected == value
        case .binaryEqualTo(let data):
            return Data(value.utf8) == data
        case .contains(let part):
            return value.contains(part)
        case .doesNotContain(let part):
            return !value.contains(part)
        case .matches(let regex):
            return regex.wholeMatch(value)
        case .doesNotMatch(let regex):
            return regex.wholeMismatch(value)
        case .equalToJson, .matchesJsonPath:
            guard let document = JSONValue.parseOrNil(value) else { return false }
            return matches(json: document)
        case .absent, .and, .or:
            return false
        }
    }

    /// Whether a JSON document satisfies an `equalToJson` or `matchesJsonPath` pattern (false for any
    /// other pattern).
    func matches(json document: JSONValue) -> Bool {
        switch self {
        case .equalToJson(let expected, let ignoreArrayOrder, let ignoreExtraElements):
            return JSONComparison.matches(
                expected: expected, actual: document, ignoreArrayOrder: ignoreArrayOrder,
                ignoreExtraElements: ignoreExtraElements)
        case .matchesJsonPath(let path, let then):
            guard let then else { return path.matches(document) }
            let results = path.evaluate(document)
            // Results that would take more than the largest request body to write are not a match,
            // rather than gigabytes of text built on a loop thread.
            guard !JSONValue.serializedSize(of: results, exceeds: Self.maxResultBytes) else { return false }
            if path.isDefinite {
                return results.first.map { then.matches($0.matchText) } ?? then.matches(nil)
            }
            return then.matches(JSONValue.array(results).text)
                || results.contains { then.matches($0.matchText) }
        default:
            return false
        }
    }

    /// The most JSONPath result text a sub-matcher compares (64 MiB).
    static let maxResultBytes = 64 << 20

    /// Whether raw body bytes satisfy the pattern (binary patterns compare bytes, the rest compare text).
    func matches(body: Data) -> Bool {
        matches(body: body) { JSONValue.parseOrNil(String(decoding: body, as: UTF8.self)) }
    }

    /// Whether a request's body satisfies the pattern, its JSON taken from `json` (parsed once per
    /// request, whatever the number of patterns) for `equalToJson` and `matchesJsonPath`.
    func matches(body: Data, json: () -> JSONValue?) -> Bool {
        switch self {
        case .binaryEqualTo(let expected): return body == expected
        case .equalToJson, .matchesJsonPath: return json().map(matches(json:)) ?? false
        case .and(let patterns): return patterns.allSatisfy { $0.matches(body: body, json: json) }
        case .or(let patterns): return patterns.contains { $0.matches(body: body, json: json) }
        default: return matches(String(decoding: body, as: UTF8.self))
        }
    }

    /// A short human description, e.g. `contains "xml"`.
    var summary: String {
        switch self {
        case .equalTo(let text, let caseInsensitive):
            "equalTo \"\(text)\"\(caseInsensitive ? " (case-insensitive)" : "")"
        case .binaryEqualTo(let data): "binaryEqualTo \(data.count) bytes"
        case .contains(let text): "contains \"\(text)\""
        case .doesNotContain(let text): "doesNotContain \"\(text)\""
        case .matches(let regex): "matches /\(regex.pattern)/"
        case .doesNotMatch(let regex): "doesNotMatch /\(regex.pattern)/"
        case .absent: "absent"
        case .equalToJson(let json, _, _): "equalToJson \(json.text)"
        case .matchesJsonPath(let path, let then):
            "matchesJsonPath \(path.expression)" + (then.map { " then \($0.summary)" } ?? "")
        case .and(let patterns): "and(" + patterns.map(\.summary).joined(separator: ", ") + ")"
        case .or(let patterns): "or(" + patterns.map(\.summary).joined(separator: ", ") + ")"
        }
    }
}

/// WireMock's `equalToJson` comparison, with its options and JsonUnit placeholders.
enum JSONComparison {
    static func matches(
        expected: JSONValue, actual: JSONValue, ignoreArrayOrder: Bool, ignoreExtraElements: Bool
    ) -> Bool {
        if case .string(let text) = expected, text.hasPrefix("${json-unit.") {
            switch text {
            case "${json-unit.ignore}", "${json-unit.any}": return true
            case "${json-unit.any-string}": if case .string = actual { return true } else { return false }
            case "${json-unit.any-number}": return actual.doubleValue != nil
            case "${json-unit.any-boolean}": return actual.boolValue != nil
            default: break
            }
        }
        switch (expected, actual) {
        case (.object(let wanted), .object(let got)):
            if !ignoreExtraElements && wanted.count != got.count { return false }
            for (key, value) in wanted {
                guard let other = got[key],
                    matches(
                        expected: value, actual: other, ignoreArrayOrder: ignoreArrayOrder,
                        ignoreExtraElements: ignoreExtraElements)
                else { return false }
            }
            return true
        case (.array(let wanted), .array(let got)):
            if ignoreExtraElements ? got.count < wanted.count : got.count != wanted.count { return false }
            if !ignoreArrayOrder {
                return zip(wanted, got).allSatisfy {
                    matches(
                        expected: $0, actual: $1, ignoreArrayOrder: ignoreArrayOrder,
                        ignoreExtraElements: ignoreExtraElements)
                }
            }
            let compatible = wanted.map { item in
                got.indices.filter {
                    matches(
                        expected: item, actual: got[$0], ignoreArrayOrder: ignoreArrayOrder,
                        ignoreExtraElements: ignoreExtraElements)
                }
            }
            return everyItemHasItsOwn(compatible, among: got.count)
        default:
            return expected.jsonEquals(actual)
        }
    }

    /// Whether each expected item can have an actual item of its own, `compatible[i]` listing
    /// the actual items that item `i` matches: a maximum bipartite matching, grown one item at a
    /// time along the shortest augmenting path (found breadth first, so no recursion). Polynomial
    /// where trying every assignment was factorial: 14 equal items against 13 of them and one other
    /// took billions of steps.
    static func everyItemHasItsOwn(_ compatible: [[Int]], among count: Int) -> Bool {
        var owner = [Int](repeating: -1, count: count)  // actual item -> expected item
        var chosen = [Int](repeating: -1, count: compatible.count)  // expected item -> actual item
        for start in compatible.indices {
            var reachedFrom = [Int](repeating: -1, count: count)
            var queue = [start]
            var head = 0
            var free = -1
            search: while head < queue.count {
                let item = queue[head]
                head += 1
                for candidate in compatible[item] where reachedFrom[candidate] < 0 {
                    reachedFrom[candidate] = item
                    if owner[candidate] < 0 {
                        free = candidate
                        break search
                    }
                    queue.append(owner[candidate])
                }
            }
            guard free >= 0 else { return false }
            // Flip the path: each expected item on it takes the actual item it reached.
            var candidate = free
            while candidate >= 0 {
                let item = reachedFrom[candidate]
                let previous = chosen[item]
                owner[candidate] = item
                chosen[item] = candidate
                candidate = previous
            }
        }
        return true
    }
}
