import CourierOpenAPI
import Foundation
import MockServer

/// A parameter's value read from a request by its style (RFC 6570 forms as OpenAPI names them), then
/// typed by its schema: `?id=1&id=2` (form, exploded), `id=1,2` (form), `.1.2` (label), `;id=1,2`
/// (matrix), `id[role]=admin` (deepObject), `1%202` (spaceDelimited), `1|2` (pipeDelimited).
struct ParameterDecoding {
    let document: OpenAPIDocument
    /// Types a text value by its schema: the engine's rule, one for documents and declarations.
    let validator: SchemaValidator

    init(document: OpenAPIDocument) {
        self.document = document
        validator = SchemaValidator(document: document)
    }

    /// What went wrong reading a parameter (before its schema is checked).
    struct Malformed: Error {
        var message: String
    }

    /// The shape a schema asks for.
    enum Shape {
        case primitive
        case array(items: JSONValue)
        case object(properties: [String: JSONValue], additional: JSONValue?)
    }

    /// The schema's outline: `$ref`s followed and `allOf` parts merged far enough to see its type.
    func outline(_ schema: JSONValue?) -> [String: JSONValue] {
        guard let schema else { return [:] }
        guard case .object(var members) = document.resolve(schema) else { return [:] }
        if case .array(let parts) = members["allOf"] ?? .null {
            for part in parts {
                for (key, value) in outline(part) where members[key] == nil { members[key] = value }
                if case .object(let more) = outline(part)["properties"] ?? .null,
                    case .object(var mine) = members["properties"] ?? .object([:])
                {
                    for (name, property) in more where mine[name] == nil { mine[name] = property }
                    members["properties"] = .object(mine)
                }
            }
        }
        return members
    }

    /// Every type the schema (or one of its `oneOf`/`anyOf` options) allows.
    func types(_ schema: JSONValue?) -> [String] {
        let members = outline(schema)
        var found: [String] = []
        switch members["type"] {
        case .string(let type)?: found = [type]
        case .array(let list)?: found = list.compactMap(\.stringValue)
        default: break
        }
        for key in ["oneOf", "anyOf"] {
            if case .array(let options) = members[key] ?? .null {
                for option in options { found += types(option).filter { !found.contains($0) } }
            }
        }
        if found.isEmpty {
            if members["properties"] != nil {
                found = ["object"]
            } else if members["items"] != nil {
                found = ["array"]
            }
        }
        return found
    }

    func shape(_ schema: JSONValue?) -> Shape {
        let members = outline(schema)
        let types = types(schema)
        if types.contains("array") { return .array(items: members["items"] ?? .object([:])) }
        if types.contains("object") {
            var properties: [String: JSONValue] = [:]
            if case .object(let named) = members["properties"] ?? .null { properties = named }
            return .object(properties: properties, additional: members["additionalProperties"])
        }
        return .primitive
    }

    /// A text value typed by the schema (`SchemaValidator.value(ofText:for:)`); the text itself
    /// when there is no schema.
    func coerce(_ text: String, _ schema: JSONValue?) -> JSONValue {
        guard let schema else { return .string(text) }
        return validator.value(ofText: text, for: schema)
    }

    private func decoded(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }

    private func array(_ items: [String], _ itemSchema: JSONValue) -> JSONValue {
        .array(items.map { coerce($0, itemSchema) })
    }

    private func object(
        _ pairs: [(String, String)], _ properties: [String: JSONValue], _ additional: JSONValue?
    ) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for (key, value) in pairs {
            let schema =
                properties[key] ?? (additional.flatMap { $0 == .bool(true) || $0 == .bool(false) ? nil : $0 })
            members[key] = coerce(value, schema)
        }
        return .object(members)
    }

    /// `k,v,k2,v2` as pairs.
    private func alternating(_ items: [String]) throws(Malformed) -> [(String, String)] {
        guard items.count % 2 == 0 else { throw Malformed(message: "an object needs name,value pairs") }
        return stride(from: 0, to: items.count, by: 2).map { (items[$0], items[$0 + 1]) }
    }

    /// `k=v` items as pairs.
    private func assigned(_ items: [String]) throws(Malformed) -> [(String, String)] {
        try items.map { item throws(Malformed) in
            guard let equals = item.firstIndex(of: "=") else {
                throw Malformed(message: "'\(item)' is not name=value")
            }
            return (String(item[..<equals]), String(item[item.index(after: equals)...]))
        }
    }

    /// A path parameter from its raw (percent-encoded) segment text.
    func path(_ parameter: OpenAPIParameter, raw: String) throws(Malformed) -> JSONValue {
        let shape = shape(parameter.schema)
        var text = Substring(raw)
        let separator: Character
        switch parameter.style {
        case "label":
            guard text.hasPrefix(".") else { throw Malformed(message: "a label-style value starts with '.'") }
            text = text.dropFirst()
            separator = parameter.explode ? "." : ","
        case "matrix":
            let prefix = ";" + parameter.name
            guard text.hasPrefix(prefix) else {
                throw Malformed(message: "a matrix-style value starts with '\(prefix)'")
            }
            if parameter.explode, case .array = shape {
                let items = text.split(separator: ";").map { piece in
                    decoded(piece.split(separator: "=", maxSplits: 1).dropFirst().first ?? "")
                }
                return array(
                    items,
                    {
                        if case .array(let items) = shape { return items }; return .null
                    }())
            }
            if parameter.explode, case .object(let properties, let additional) = shape {
                let pairs = try assigned(text.split(separator: ";").map { decoded($0) })
                return object(pairs, properties, additional)
            }
            text = text.dropFirst(prefix.count)
            guard text.hasPrefix("=") || text.isEmpty else {
                throw Malformed(message: "expected '=' after '\(prefix)'")
            }
            text = text.dropFirst()
            separator = ","
        default:
            separator = ","
        }
        return try split(
            text, separator: separator, explode: parameter.explode, shape: shape, schema: parameter.schema)
    }

    private func split(
        _ text: Substring, separator: Character, explode: Bool, shape: Shape, schema: JSONValue?
    ) throws(Malformed) -> JSONValue {
        switch shape {
        case .primitive:
            return coerce(decoded(text), schema)
        case .array(let items):
            return array(
                text.isEmpty
                    ? []
                    : text.split(separator: separator, omittingEmptySubsequences: false).map { decoded($0) },
                items)
        case .object(let properties, let additional):
            let items = text.split(separator: separator, omittingEmptySubsequences: false).map { decoded($0) }
            let pairs = try explode ? assigned(items) : alternating(items)
            return object(pairs, properties, additional)
        }
    }

    /// A query parameter from the decoded query pairs; nil when it is absent.
    func query(_ parameter: OpenAPIParameter, _ query: [(name: String, value: String)], declared: Set<String>)
        throws(Malformed)
        -> JSONValue?
    {
        let shape = shape(parameter.schema)
        let values = query.filter { $0.name == parameter.name }.map(\.value)
        switch (parameter.style, shape) {
        case ("deepObject", .object(let properties, let additional)):
            let prefix = parameter.name + "["
            let pairs = query.filter { $0.name.hasPrefix(prefix) && $0.name.hasSuffix("]") }
                .map { (String($0.name.dropFirst(prefix.count).dropLast()), $0.value) }
            return pairs.isEmpty ? nil : object(pairs, properties, additional)
        case ("form", .object(let properties, let additional)) where parameter.explode:
            let pairs = query.filter {
                properties[$0.name] != nil || (additional != nil && !declared.contains($0.name))
            }
            .map { ($0.name, $0.value) }
            return pairs.isEmpty ? nil : object(pairs, properties, additional)
        default:
            break
        }
        guard let first = values.first else { return nil }
        if case .array(let items) = shape {
            if parameter.explode { return array(values, items) }
            let separator: Character =
                parameter.style == "spaceDelimited" ? " " : parameter.style == "pipeDelimited" ? "|" : ","
            return array(
                first.isEmpty
                    ? []
                    : first.split(separator: separator, omittingEmptySubsequences: false).map(String.init),
                items)
        }
        if case .object(let properties, let additional) = shape {
            let items = first.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return object(try alternating(items), properties, additional)
        }
        if values.count > 1 { throw Malformed(message: "given \(values.count) times; it takes one value") }
        return coerce(first, parameter.schema)
    }

    /// A header or cookie parameter from its text; simple style for headers, form for cookies.
    func simple(_ parameter: OpenAPIParameter, _ text: String, percentEncoded: Bool) throws(Malformed)
        -> JSONValue
    {
        let shape = shape(parameter.schema)
        switch shape {
        case .primitive:
            return coerce(percentEncoded ? decoded(Substring(text)) : text, parameter.schema)
        default:
            let items = text.split(separator: ",", omittingEmptySubsequences: false)
                .map { piece in
                    percentEncoded ? decoded(piece) : String(piece).trimmingCharacters(in: .whitespaces)
                }
            if case .array(let itemSchema) = shape { return array(text.isEmpty ? [] : items, itemSchema) }
            if case .object(let properties, let additional) = shape {
                return object(
                    try parameter.explode ? assigned(items) : alternating(items), properties, additional)
            }
            return .string(text)
        }
    }

    /// A parameter described by `content` (a JSON value in a query string, say).
    func content(_ parameter: OpenAPIParameter, _ text: String) throws(Malformed) -> JSONValue {
        guard let type = parameter.contentType, MediaTypes.isJSON(type) else { return .string(text) }
        guard let value = try? JSONValue.parse(Data(text.utf8)) else {
            throw Malformed(message: "not valid JSON (\(type))")
        }
        return value
    }
}
