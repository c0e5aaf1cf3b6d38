import CourierPrimitives
import Foundation

/// A value a response template works with: the request model, literals, helper results.
indirect enum TemplateValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// A JSON array or object (from `jsonPath`); renders as compact JSON.
    case json(JSONValue)
    /// A list; renders as `[a, b]`.
    case list([TemplateValue])
    /// Named members; renders as `{a=b}`. Member lookup falls back to a case-insensitive match (headers).
    case map([String: TemplateValue])
    /// Text that also has items and members: `request.path` (its segments and named parameters) and a
    /// query parameter or header (its values).
    case composite(String, items: [TemplateValue], members: [String: TemplateValue])

    /// A value from JSON: scalars become scalars, arrays and objects stay JSON.
    init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .number(Double(value))
        case .double(let value): self = .number(value)
        case .string(let value): self = .string(value)
        case .array, .object: self = .json(json)
        }
    }

    /// Several values of one name: the value itself when there is one, renders as the first.
    static func values(_ values: [String]) -> TemplateValue {
        let display = values.count == 1 ? values[0] : "[" + values.joined(separator: ", ") + "]"
        return .composite(display, items: values.map(TemplateValue.string), members: [:])
    }

    /// The text the value renders as.
    var rendered: String {
        switch self {
        case .null: return ""
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return Self.format(value)
        case .string(let value): return value
        case .json(let value): return value.matchText
        case .list(let items): return "[" + items.map(\.rendered).joined(separator: ", ") + "]"
        case .map(let members):
            return "{"
                + members.keys.sorted().map { "\($0)=\(members[$0]?.rendered ?? "")" }
                .joined(separator: ", ") + "}"
        case .composite(let display, _, _): return display
        }
    }

    static func format(_ number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }

    /// Handlebars truthiness: false, null, "", 0 and empty lists are false.
    var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let value): return value
        case .number(let value): return value != 0
        case .string(let value): return !value.isEmpty
        case .json(let value):
            switch value {
            case .array(let items): return !items.isEmpty
            default: return true
            }
        case .list(let items): return !items.isEmpty
        case .map: return true
        case .composite(let display, let items, _): return !display.isEmpty || !items.isEmpty
        }
    }

    /// The value as a number, when it is one or is text that reads as one.
    var number: Double? {
        switch self {
        case .number(let value): return value
        case .bool: return nil
        case .json(let value): return value.doubleValue
        default: return Double(rendered.trimmingCharacters(in: .whitespaces))
        }
    }

    /// The member or item `name` (`[n]` indexes lists), or null.
    func member(_ name: String) -> TemplateValue {
        switch self {
        case .map(let members):
            if let value = members[name] { return value }
            let lowered = name.lowercased()
            return members.first { $0.key.lowercased() == lowered }?.value ?? .null
        case .composite(_, let items, let members):
            if let value = members[name] { return value }
            if let index = Int(name), items.indices.contains(index) { return items[index] }
            if name == "size" || name == "length" { return .number(Double(items.count)) }
            return .null
        case .list(let items):
            if let index = Int(name), items.indices.contains(index) { return items[index] }
            if name == "size" || name == "length" { return .number(Double(items.count)) }
            return .null
        case .json(.array(let items)):
            if let index = Int(name), items.indices.contains(index) {
                return TemplateValue(json: items[index])
            }
            if name == "size" || name == "length" { return .number(Double(items.count)) }
            return .null
        case .json(.object(let members)):
            return members[name].map(TemplateValue.init(json:)) ?? .null
        default:
            return .null
        }
    }

    /// The items to iterate: list items, or an object's members with their keys.
    var iterationItems: [(key: String?, value: TemplateValue)] {
        switch self {
        case .list(let items), .composite(_, let items, _):
            return items.map { (nil, $0) }
        case .json(.array(let items)):
            return items.map { (nil, TemplateValue(json: $0)) }
        case .json(.object(let members)):
            return members.keys.sorted().map { ($0, TemplateValue(json: members[$0] ?? .null)) }
        case .map(let members):
            return members.keys.sorted().map { ($0, members[$0] ?? .null) }
        default:
            return []
        }
    }
}
