import CourierPrimitives

/// A compiled JSONPath expression (the common subset WireMock users write).
///
/// Supported: `$`, `.name`, `['name']`, `.*`, `[*]`, `..name`, `..*`, `[n]` (negative from the end),
/// `[a,b]`, `[start:end]`, `.length()`, and filters `[?(...)]` with `@`/`$` paths, literals, `==`, `!=`,
/// `<`, `<=`, `>`, `>=`, `=~ /regex/`, existence (`@.name`), `!`, `&&`, `||` and parentheses.
struct JSONPath: Sendable {
    indirect enum Segment: Sendable {
        case child(String)
        case wildcard
        case recursive(String?)
        case indices([Int])
        case names([String])
        case slice(start: Int?, end: Int?)
        case filter(Filter)
        case length
    }

    indirect enum Filter: Sendable {
        case or([Filter])
        case and([Filter])
        case not(Filter)
        case exists(Operand)
        case compare(Operand, String, Operand)
        case regex(Operand, RegexBox)
    }

    enum Operand: Sendable {
        case current([Segment])
        case root([Segment])
        case literal(JSONValue)
    }

    /// Why an expression could not be compiled.
    struct SyntaxError: Error, CustomStringConvertible {
        var description: String
    }

    let expression: String
    let segments: [Segment]
    /// Whether the path can select more than one value.
    let isDefinite: Bool

    init(_ expression: String) throws {
        self.expression = expression
        var parser = Parser(Array(expression.unicodeScalars))
        parser.skipSpaces()
        if parser.peek == "$" { parser.advance() }
        segments = try parser.parseSegments(stopAt: [])
        parser.skipSpaces()
        guard parser.atEnd else {
            throw SyntaxError(description: "unexpected text at \(parser.position) in \(expression)")
        }
        isDefinite = segments.allSatisfy {
            switch $0 {
            case .child, .length: true
            case .indices(let list): list.count == 1
            case .names(let list): list.count == 1
            default: false
            }
        }
    }

    /// The values the path selects in `document`.
    func evaluate(_ document: JSONValue) -> [JSONValue] {
        Self.apply(segments, to: [document], root: document)
    }

    /// WireMock's rule: a match when the path selects a non-null value, or a non-empty array or object.
    func matches(_ document: JSONValue) -> Bool {
        let results = evaluate(document)
        if isDefinite {
            guard let value = results.first else { return false }
            switch value {
            case .null: return false
            case .array(let items): return !items.isEmpty
            case .object(let members): return !members.isEmpty
            default: return true
            }
        }
        return !results.isEmpty
    }

    static func apply(_ segments: [Segment], to start: [JSONValue], root: JSONValue) -> [JSONValue] {
        var current = start
        for segment in segments {
            var next: [JSONValue] = []
            for value in current { select(segment, from: value, root: root, into: &next) }
            current = next
        }
        return current
    }

    private static func select(
        _ segment: Segment, from value: JSONValue, root: JSONValue, into out: inout [JSONValue]
    ) {
        switch segment {
        case .child(let name):
            if case .object(let members) = value, let member = members[name] { out.append(member) }
        case .names(let names):
            if case .object(let members) = value {
                for name in names { if let member = members[name] { out.append(member) } }
            }
        case .wildcard:
            switch value {
            case .array(let items): out.append(contentsOf: items)
            case .object(let members):
                out.append(contentsOf: members.keys.sorted().compactMap { members[$0] })
            default: break
            }
        case .recursive(let name):
            collect(value, name: name, into: &out)
        case .indices(let indices):
            if case .array(let items) = value {
                for index in indices {
                    let resolved = index < 0 ? items.count + index : index
                    if resolved >= 0 && resolved < items.count { out.append(items[resolved]) }
                }
            }
        case .slice(let start, let end):
            if case .array(let items) = value {
                func clamp(_ index: Int) -> Int {
                    max(0, min(items.count, index < 0 ? items.count + index : index))
                }
                let lower = clamp(start ?? 0)
                let upper = clamp(end ?? items.count)
                if lower < upper { out.append(contentsOf: items[lower..<upper]) }
            }
        case .filter(let filter):
            let candidates: [JSONValue]
            switch value {
            case .array(let items): candidates = items
            case .object(let members): candidates = members.keys.sorted().compactMap { members[$0] }
            default: candidates = []
            }
            for candidate in candidates where test(filter, current: candidate, root: root) == true {
                out.append(candidate)
            }
        case .length:
            switch value {
            case .array(let items): out.append(.int(Int64(items.count)))
            case .object(let members): out.append(.int(Int64(members.count)))
            case .string(let text): out.append(.int(Int64(text.count)))
            default: break
            }
        }
    }

    private static func collect(_ value: JSONValue, name: String?, into out: inout [JSONValue]) {
        switch value {
        case .object(let members):
            for key in members.keys.sorted() {
                guard let member = members[key] else { continue }
                if name == nil || name == key { out.append(member) }
                collect(member, name: name, into: &out)
            }
        case .array(let items):
            for item in items {
                if name == nil { out.append(item) }
                collect(item, name: name, into: &out)
            }
        default:
            break
        }
    }

    private static func resolve(_ operand: Operand, current: JSONValue, root: JSONValue) -> JSONValue? {
        switch operand {
        case .literal(let value): return value
        case .current(let segments): return apply(segments, to: [current], root: root).first
        case .root(let segments): return apply(segments, to: [root], root: root).first
        }
    }

    /// `||` (`decisive` true) or `&&` (false) of `filters`: `decisive` as soon as one filter gives
    /// it; otherwise unknown if one was, else the other value.
    private static func first(
        _ decisive: Bool, among filters: [Filter], current: JSONValue, root: JSONValue
    ) -> Bool? {
        var unknown = false
        for filter in filters {
            guard let value = test(filter, current: current, root: root) else {
                unknown = true
                continue
            }
            if value == decisive { return decisive }
        }
        return unknown ? nil : !decisive
    }

    /// Whether `filter` holds for `current`; nil when it cannot be told, because a regular
    /// expression gave up (see `RegexBox.outcome`). Unknown stays unknown through `!`, and only an
    /// element for which the filter is true is selected, so `!(@.x =~ /re/)` does not select an
    /// element whose match never finished.
    private static func test(_ filter: Filter, current: JSONValue, root: JSONValue) -> Bool? {
        switch filter {
        case .or(let filters): return first(true, among: filters, current: current, root: root)
        case .and(let filters): return first(false, among: filters, current: current, root: root)
        case .not(let inner): return test(inner, current: current, root: root).map { !$0 }
        case .exists(let operand): return resolve(operand, current: current, root: root) != nil
        case .regex(let operand, let regex):
            guard let value = resolve(operand, current: current, root: root) else { return false }
            switch regex.outcome(value.matchText) {
            case .match: return true
            case .noMatch: return false
            case .gaveUp: return nil
            }
        case .compare(let left, let op, let right):
            guard let lhs = resolve(left, current: current, root: root),
                let rhs = resolve(right, current: current, root: root)
            else { return false }
            switch op {
            case "==": return lhs.jsonEquals(rhs)
            case "!=": return !lhs.jsonEquals(rhs)
            default: break
            }
            if let a = lhs.doubleValue, let b = rhs.doubleValue {
                switch op {
                case "<": return a < b
                case "<=": return a <= b
                case ">": return a > b
                case ">=": return a >= b
                default: return false
                }
            }
            if let a = lhs.stringValue, let b = rhs.stringValue {
                switch op {
                case "<": return a < b
                case "<=": return a <= b
                case ">": return a > b
                case ">=": return a >= b
                default: return false
                }
            }
            return false
        }
    }
}
