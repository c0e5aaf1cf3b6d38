import CourierPrimitives

/// A schema read for comparison: its `$ref`s followed, `allOf` merged, a nullable `anyOf`/`oneOf`
/// (`[X, {type: null}]`), a 3.1 type array and a 3.0 `nullable` all read as "X, or null".
struct SchemaView {
    /// Where the schema is, after references.
    var pointer: String
    /// The JSON types it allows, not counting null; nil for any.
    var types: Set<String>?
    var nullable = false
    var format: String?
    var enumValues: [JSONValue]?
    /// Properties by name, each with its schema and its pointer.
    var properties: [String: (schema: JSONValue, pointer: String)] = [:]
    var required: Set<String> = []
    var items: (schema: JSONValue, pointer: String)?
    var additional: (schema: JSONValue, pointer: String)?
    var minimum: Double?
    var maximum: Double?
    var minLength: Int?
    var maxLength: Int?
    var pattern: String?

    /// Reads the schema `value` found at `pointer` in `document`.
    /// - Throws: `OpenAPIDocumentError` for a broken reference.
    init(_ value: JSONValue, at pointer: String, in document: ReferencedDocument, depth: Int = 0)
        throws(OpenAPIDocumentError)
    {
        let (schema, location) = try document.resolve(value, at: pointer)
        self.pointer = location
        guard depth < 64 else { return }  // composition nested this deep is read as any value
        if case .bool(false) = schema { types = [] }
        guard case .object(let members) = schema else { return }
        switch members["type"] {
        case .string(let type)?:
            if type == "null" { nullable = true; types = [] } else { types = [type] }
        case .array(let list)?:
            let names = list.compactMap(\.stringValue)
            nullable = names.contains("null")
            types = Set(names.filter { $0 != "null" })
        default:
            break
        }
        if members["nullable"]?.boolValue == true { nullable = true }
        // 3.1's `contentEncoding: base64` is 3.0's `format: base64`.
        format =
            members["format"]?.stringValue
            ?? (members["contentEncoding"]?.stringValue?.lowercased() == "base64" ? "base64" : nil)
        if case .array(let values)? = members["enum"] {
            nullable = nullable || values.contains(.null)
            enumValues = values.filter { $0 != .null }
        }
        if let constant = members["const"] { enumValues = [constant] }
        if case .object(let properties)? = members["properties"] {
            for (name, property) in properties {
                self.properties[name] = (property, PointerText.join(location, "properties", name))
            }
        }
        if case .array(let names)? = members["required"] { required = Set(names.compactMap(\.stringValue)) }
        if let items = members["items"] { self.items = (items, PointerText.join(location, "items")) }
        if let additional = members["additionalProperties"], additional != .bool(true),
            additional != .bool(false)
        {
            self.additional = (additional, PointerText.join(location, "additionalProperties"))
        }
        minimum = members["minimum"]?.doubleValue
        maximum = members["maximum"]?.doubleValue
        minLength = members["minLength"]?.intValue
        maxLength = members["maxLength"]?.intValue
        pattern = members["pattern"]?.stringValue
        if types == nil, !self.properties.isEmpty || self.additional != nil { types = ["object"] }
        if types == nil, self.items != nil { types = ["array"] }
        if case .array(let parts)? = members["allOf"] {
            for (index, part) in parts.enumerated() {
                merge(
                    try SchemaView(
                        part, at: PointerText.join(location, "allOf", String(index)), in: document,
                        depth: depth + 1))
            }
        }
        for keyword in ["anyOf", "oneOf"] {
            guard case .array(let parts)? = members[keyword] else { continue }
            var branches: [SchemaView] = []
            for (index, part) in parts.enumerated() {
                let branch = try SchemaView(
                    part, at: PointerText.join(location, keyword, String(index)), in: document,
                    depth: depth + 1)
                if branch.types == [], branch.nullable { nullable = true } else { branches.append(branch) }
            }
            if branches.count == 1, let only = branches.first {
                let wasNullable = nullable
                merge(only)
                self.pointer = only.pointer
                nullable = wasNullable || only.nullable
            } else if !branches.isEmpty {
                merge(SchemaView(alternatives: branches, pointer: location))
            }
        }
    }

    /// The view of "one of these": the types and properties any branch allows, the properties every
    /// branch requires.
    private init(alternatives: [SchemaView], pointer: String) {
        self.pointer = pointer
        var types: Set<String>? = []
        var required: Set<String>?
        for branch in alternatives {
            if let branchTypes = branch.types, let known = types {
                types = known.union(branchTypes)
            } else {
                types = nil
            }
            nullable = nullable || branch.nullable
            for (name, property) in branch.properties where properties[name] == nil {
                properties[name] = property
            }
            required = required.map { $0.intersection(branch.required) } ?? branch.required
            if let values = branch.enumValues { enumValues = (enumValues ?? []) + values }
        }
        self.types = types
        self.required = required ?? []
    }

    /// Adds what `other` says (an `allOf` part, or the one branch of a nullable `anyOf`).
    private mutating func merge(_ other: SchemaView) {
        if let otherTypes = other.types { types = types.map { $0.intersection(otherTypes) } ?? otherTypes }
        format = format ?? other.format
        enumValues = enumValues ?? other.enumValues
        for (name, property) in other.properties where properties[name] == nil { properties[name] = property }
        required.formUnion(other.required)
        items = items ?? other.items
        additional = additional ?? other.additional
        minimum = minimum ?? other.minimum
        maximum = maximum ?? other.maximum
        minLength = minLength ?? other.minLength
        maxLength = maxLength ?? other.maxLength
        pattern = pattern ?? other.pattern
    }
}
