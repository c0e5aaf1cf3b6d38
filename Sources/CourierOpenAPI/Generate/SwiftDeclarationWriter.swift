import CourierPrimitives

/// A Swift type as generated code writes it.
indirect enum SwiftType: Hashable {
    /// A type of the toolchain or of Courier: `String`, `Date`, `JSONValue`…
    case builtin(String)
    /// A generated model.
    case named(String)
    case array(SwiftType)
    case dictionary(SwiftType)

    var code: String {
        switch self {
        case .builtin(let name), .named(let name): name
        case .array(let item): "[\(item.code)]"
        case .dictionary(let value): "[String: \(value.code)]"
        }
    }
}

/// One stored property of a generated model.
struct PropertyDeclaration {
    /// The Swift name.
    var name: String
    /// The JSON key.
    var key: String
    var type: SwiftType
    var optional: Bool
    /// A `Schema` expression for `propertySchemas`, when the type alone does not say the rules.
    var schema: String?
    var summary: String?
}

/// One generated model.
enum ModelDeclaration {
    case structure(name: String, properties: [PropertyDeclaration], summary: String?)
    case stringEnum(name: String, cases: [(name: String, raw: String)], summary: String?)
    /// An `anyOf` (or, `exclusive`, a `oneOf`): an enum with a case per branch.
    case alternatives(
        name: String, cases: [(name: String, type: SwiftType)], exclusive: Bool, summary: String?)
    case alias(name: String, type: SwiftType, summary: String?)

    var name: String {
        switch self {
        case .structure(let name, _, _), .stringEnum(let name, _, _), .alternatives(let name, _, _, _),
            .alias(let name, _, _):
            name
        }
    }
}

/// Writes one document's declarations: the models first (as operations ask for them), then the
/// operations grouped by tag.
final class SwiftDeclarationWriter {
    let document: ReferencedDocument
    private(set) var undeclared: [UndeclaredFeature] = []
    private var reported: Set<String> = []
    /// Every type name given out, and the ones generated code must not hide.
    var typeNames: Set<String> = SwiftNames.reservedTypes
    /// Component schemas' pointers and their type names.
    private var componentTypes: [String: String] = [:]
    private(set) var models: [ModelDeclaration] = []
    private(set) var modelsByName: [String: ModelDeclaration] = [:]
    /// The types of the inline schemas declared so far, by pointer.
    private var inlineTypes: [String: (SwiftType, nullable: Bool)] = [:]

    /// Who may use the declarations.
    let access: DeclarationGenerator.Access

    init(document: ReferencedDocument, access: DeclarationGenerator.Access = .internal) {
        self.document = document
        self.access = access
    }

    /// `part` with its `$ref` chain followed; `part` as written when the chain does not resolve. The
    /// loader refuses a reference to nothing and an endless chain, so only a document made another
    /// way gets here with one; such a part, a bare `$ref`, is then neither null nor a constant to the
    /// callers, which declare it as they would an unknown schema.
    private func resolvedOrAsWritten(_ part: JSONValue, at pointer: String) -> JSONValue {
        do {
            return try document.resolve(part, at: pointer).value
        } catch {
            return part
        }
    }

    func report(_ pointer: String, _ reason: String, documentation: Bool = false) {
        guard reported.insert(pointer + "\u{0}" + reason).inserted else { return }
        undeclared.append(UndeclaredFeature(pointer: pointer, reason: reason, isDocumentation: documentation))
    }

    /// How a type is named: exactly this (a component's, already given out), or after this.
    enum Naming {
        case fixed(String)
        case suggested(String)
    }

    private func claim(_ naming: Naming) -> String {
        switch naming {
        case .fixed(let name): return name
        case .suggested(let name): return SwiftNames.unique(SwiftNames.typeName(name), in: &typeNames)
        }
    }

    private func add(_ model: ModelDeclaration) {
        models.append(model)
        modelsByName[model.name] = model
    }

    /// The type name of the component schema at `pointer`, declared the first time it is asked for.
    func component(_ pointer: String) throws(OpenAPIDocumentError) -> String {
        if let name = componentTypes[pointer] { return name }
        guard let value = document.value(at: pointer) else {
            throw .at(pointer, "no schema here")
        }
        let raw = PointerText.lastToken(pointer)
        var name = SwiftNames.typeName(raw)
        if typeNames.contains(name) {
            name = SwiftNames.unique(name + "Model", in: &typeNames)
        } else {
            typeNames.insert(name)
        }
        if name != raw {
            report(pointer, "the model is named \(name), and so the component of the document it writes")
        }
        componentTypes[pointer] = name
        let (type, _) = try self.type(of: value, at: pointer, naming: .fixed(name))
        if type != .named(name) {
            add(.alias(name: name, type: type, summary: value["description"]?.stringValue))
        }
        return name
    }

    /// Keywords of a schema object the declarations carry (the rest are reported).
    private static let schemaKeywords: Set<String> = [
        "type", "format", "enum", "const", "properties", "required", "items", "additionalProperties", "allOf",
        "anyOf",
        "oneOf", "nullable", "minLength", "maxLength", "pattern", "minimum", "maximum", "$ref", "description",
        "title", "example", "examples", "default", "$schema", "$id", "$comment", "externalDocs", "deprecated",
    ]
    /// Reported as documentation (a parameter's `default` is declared, or reported, with the parameter).
    private static let documentationKeywords: Set<String> = [
        "description", "title", "example", "examples", "externalDocs", "deprecated", "$comment",
    ]

    /// Reports what the schema says that no declaration can; documentation is reported as such.
    private func reportKeywords(_ schema: [String: JSONValue], at pointer: String, isRoot: Bool) {
        for key in schema.keys.sorted() {
            if key.hasPrefix("x-") { continue }
            if !Self.schemaKeywords.contains(key) {
                report(
                    PointerText.join(pointer, key),
                    "'\(key)' is not declared: Courier's schemas have no \(key)")
            } else if Self.documentationKeywords.contains(key), key != "description" || !isRoot {
                report(
                    PointerText.join(pointer, key), "the schema's \(key) is not declared", documentation: true
                )
            }
        }
    }

    /// The type a generated alias stands for (through aliases of aliases), or `type` itself: a
    /// component `Email` that is a `String` with `format: email` is refined as a `String`.
    func underlying(_ type: SwiftType) -> SwiftType {
        var current = type
        var seen: Set<String> = []
        while case .named(let name) = current, seen.insert(name).inserted,
            case .alias(_, let aliased, _)? = modelsByName[name]
        {
            current = aliased
        }
        return current
    }

    /// `schema` with its array items' references followed, arrays of arrays too (`[Date]` with `Date` a
    /// `format: date` string keeps its format), for `SchemaLiteral.refinement`.
    func itemsResolved(_ schema: JSONValue, at pointer: String, depth: Int = 0) throws(OpenAPIDocumentError)
        -> JSONValue
    {
        guard depth < 8, case .object(var members) = schema, let items = members["items"] else {
            return schema
        }
        let (resolved, location) = try document.resolve(items, at: PointerText.join(pointer, "items"))
        members["items"] = try itemsResolved(
            valueSchema(resolved, at: location), at: location, depth: depth + 1)
        return .object(members)
    }

    /// The schema of the values a nullable schema allows besides null: the one other branch of an
    /// `anyOf` or `oneOf` with a null branch; else the schema itself.
    func valueSchema(_ schema: JSONValue, at pointer: String) -> JSONValue {
        for keyword in ["anyOf", "oneOf"] {
            guard case .array(let parts)? = schema[keyword] else { continue }
            let others = parts.enumerated().compactMap { index, part -> JSONValue? in
                let resolved = resolvedOrAsWritten(
                    part, at: PointerText.join(pointer, keyword, String(index)))
                return Self.isNull(resolved) ? nil : resolved
            }
            if others.count == 1, others.count < parts.count, let only = others.first { return only }
        }
        return schema
    }

    private static func isNull(_ schema: JSONValue) -> Bool {
        schema["type"] == .string("null") || (schema["enum"] == .array([.null]))
    }

    /// The Swift type of the schema `value` at `pointer`, and whether it allows null. A schema met
    /// again at the same place (a property an `allOf` copies) gets the type it got the first time.
    func type(of value: JSONValue, at pointer: String, naming: Naming) throws(OpenAPIDocumentError) -> (
        SwiftType, nullable: Bool
    ) {
        if value["$ref"] == nil, let known = inlineTypes[pointer] { return known }
        let found = try makeType(of: value, at: pointer, naming: naming)
        if value["$ref"] == nil { inlineTypes[pointer] = found }
        return found
    }

    private func makeType(of value: JSONValue, at pointer: String, naming: Naming)
        throws(OpenAPIDocumentError) -> (
            SwiftType, nullable: Bool
        )
    {
        if case .string(let reference)? = value["$ref"] {
            let (file, fragment) = OpenAPIDocument.split(reference)
            if let target = try? JSONPointer(fragment: fragment), target.tokens.count == 3,
                target.tokens[0] == "components", target.tokens[1] == "schemas"
            {
                return (
                    .named(
                        try component(file.isEmpty ? target.description : file + "#" + target.description)),
                    false
                )
            }
            let (resolved, location) = try document.resolve(value, at: pointer)
            return try type(of: resolved, at: location, naming: naming)
        }
        guard case .object(let schema) = value else {
            if value == .bool(false) {
                report(pointer, "a schema that allows nothing is declared as any value")
            }
            return (.builtin("JSONValue"), false)
        }
        reportKeywords(schema, at: pointer, isRoot: true)
        var nullable = schema["nullable"]?.boolValue == true
        var types: [String] = []
        switch schema["type"] {
        case .string(let type)?: types = [type]
        case .array(let list)?: types = list.compactMap(\.stringValue)
        default: break
        }
        if types.contains("null") {
            nullable = true
            types.removeAll { $0 == "null" }
        }
        let summary = schema["description"]?.stringValue
        // Branches that are each one constant (`{const: "crimson", title: CRIMSON}`) are an enumeration.
        if let (keyword, constants) = constantBranches(schema, at: pointer) {
            if constants.contains(.null) { nullable = true }
            let strings = constants.compactMap(\.stringValue)
            if !strings.isEmpty, strings.count == constants.filter({ $0 != .null }).count {
                return (stringEnum(strings, naming: naming, summary: summary), nullable)
            }
            report(
                PointerText.join(pointer, keyword),
                "an enumeration of values other than strings is declared as its type, without the list")
        }
        for keyword in ["oneOf", "anyOf"] where constantBranches(schema, at: pointer) == nil {
            guard case .array(let parts)? = schema[keyword] else { continue }
            var branches: [(JSONValue, String)] = []
            for (index, part) in parts.enumerated() {
                let partPointer = PointerText.join(pointer, keyword, String(index))
                let resolved = (try? document.resolve(part, at: partPointer).value) ?? part
                if Self.isNull(resolved) { nullable = true } else { branches.append((part, partPointer)) }
            }
            if branches.count == 1, schema["properties"] == nil, let (part, partPointer) = branches.first {
                let (type, branchNullable) = try self.type(of: part, at: partPointer, naming: naming)
                return (type, nullable || branchNullable)
            }
            if branches.count > 1 {
                return (
                    try alternatives(
                        branches, keyword: keyword, at: pointer, naming: naming, summary: summary), nullable
                )
            }
        }
        if case .array(let parts)? = schema["allOf"] {
            if parts.count == 1, schema["properties"] == nil, let part = parts.first {
                let (type, partNullable) = try self.type(
                    of: part, at: PointerText.join(pointer, "allOf", "0"), naming: naming)
                return (type, nullable || partNullable)
            }
            return (try structure(schema, at: pointer, naming: naming, summary: summary), nullable)
        }
        if case .array(let values)? = schema["enum"] {
            if values.contains(.null) { nullable = true }
            let strings = values.compactMap(\.stringValue)
            if !strings.isEmpty, strings.count == values.filter({ $0 != .null }).count {
                return (stringEnum(strings, naming: naming, summary: summary), nullable)
            }
            report(
                PointerText.join(pointer, "enum"),
                "an enum of values other than strings is declared as its type, without the list")
        }
        if case .string(let constant)? = schema["const"] {
            return (stringEnum([constant], naming: naming, summary: summary), nullable)
        } else if schema["const"] != nil {
            report(
                PointerText.join(pointer, "const"), "a constant other than a string is declared as its type")
        }
        if types.count > 1 {
            // A value of several types is one of several schemas, one per type, the schema's other keywords
            // kept in each (those of other types hold nothing).
            let branches = types.enumerated().map { index, type in
                var branch = schema
                branch["type"] = .string(type)
                branch["nullable"] = nil
                return (JSONValue.object(branch), PointerText.join(pointer, "type", String(index)))
            }
            return (
                try alternatives(branches, keyword: "anyOf", at: pointer, naming: naming, summary: summary),
                nullable
            )
        }
        let format = schema["format"]?.stringValue
        switch types.first {
        case "string":
            switch format {
            case "date-time": return (.builtin("Date"), nullable)
            // `url` is no JSON Schema format: a `URL` would write it as `uri`, so it stays a `String` that says it.
            case "uri": return (.builtin("URL"), nullable)
            case "uuid": return (.builtin("UUID"), nullable)
            case "byte": return (.builtin("Data"), nullable)
            default: return (.builtin("String"), nullable)
            }
        case "integer":
            switch format {
            // A width format is the Swift integer of that width, whose bounds its schema says.
            case let width? where SchemaLiteral.integerTypes[width] != nil:
                return (.builtin(SchemaLiteral.integerTypes[width] ?? "Int"), nullable)
            default: return (.builtin("Int"), nullable)
            }
        case "number": return (.builtin(format == "float" ? "Float" : "Double"), nullable)
        case "boolean": return (.builtin("Bool"), nullable)
        case "array":
            guard let items = schema["items"] else { return (.array(.builtin("JSONValue")), nullable) }
            let itemName: Naming
            switch naming {
            case .fixed(let name), .suggested(let name): itemName = .suggested(name + "Item")
            }
            let (item, itemNullable) = try type(
                of: items, at: PointerText.join(pointer, "items"), naming: itemName)
            if itemNullable {
                report(
                    PointerText.join(pointer, "items"),
                    "null items are not declared: the array's items are not optional")
            }
            return (.array(item), nullable)
        default:
            if schema["properties"] != nil {
                return (try structure(schema, at: pointer, naming: naming, summary: summary), nullable)
            }
            if types.first == "object" || schema["additionalProperties"] != nil {
                return (try dictionary(schema, at: pointer, naming: naming), nullable)
            }
            if schema["items"] != nil {
                report(
                    PointerText.join(pointer, "items"),
                    "'items' without 'type: array' is declared as JSONValue")
            }
            return (.builtin("JSONValue"), nullable)
        }
    }

    private func dictionary(_ schema: [String: JSONValue], at pointer: String, naming: Naming)
        throws(OpenAPIDocumentError) -> SwiftType
    {
        switch schema["additionalProperties"] {
        case .object(let members)? where !members.isEmpty:
            let valueName: Naming
            switch naming {
            case .fixed(let name), .suggested(let name): valueName = .suggested(name + "Value")
            }
            let (value, _) = try type(
                of: .object(members), at: PointerText.join(pointer, "additionalProperties"), naming: valueName
            )
            return .dictionary(value)
        case .bool(false)?:
            report(
                PointerText.join(pointer, "additionalProperties"),
                "an object with no members is declared as a map of any values")
            return .dictionary(.builtin("JSONValue"))
        default:
            return .dictionary(.builtin("JSONValue"))
        }
    }

    /// The constants of a `oneOf` or `anyOf` whose every branch is one constant (`const`, or an `enum` of
    /// one value) with nothing but a title or a description beside it; nil for any other schema.
    private func constantBranches(_ schema: [String: JSONValue], at pointer: String) -> (String, [JSONValue])?
    {
        for keyword in ["oneOf", "anyOf"] {
            guard case .array(let parts)? = schema[keyword], !parts.isEmpty else { continue }
            var constants: [JSONValue] = []
            for (index, part) in parts.enumerated() {
                let resolved = resolvedOrAsWritten(
                    part, at: PointerText.join(pointer, keyword, String(index)))
                guard case .object(let members) = resolved,
                    Set(members.keys).isSubset(of: ["const", "enum", "title", "description", "type"])
                else { return nil }
                if let constant = members["const"] {
                    constants.append(constant)
                } else if case .array(let values)? = members["enum"], values.count == 1,
                    let value = values.first
                {
                    constants.append(value)
                } else {
                    return nil
                }
            }
            return (keyword, constants)
        }
        return nil
    }

    private func stringEnum(_ values: [String], naming: Naming, summary: String?) -> SwiftType {
        let name = claim(naming)
        var taken: Set<String> = []
        let cases = values.map { raw in (SwiftNames.unique(SwiftNames.caseName(raw), in: &taken), raw) }
        add(.stringEnum(name: name, cases: cases, summary: summary))
        return .named(name)
    }

    private func alternatives(
        _ branches: [(JSONValue, String)], keyword: String, at pointer: String, naming: Naming,
        summary: String?
    ) throws(OpenAPIDocumentError) -> SwiftType {
        let name = claim(naming)
        if document.value(at: pointer)?["discriminator"] != nil {
            report(
                PointerText.join(pointer, "discriminator"),
                "the discriminator is not declared: the branches are tried in order")
        }
        var taken: Set<String> = []
        var cases: [(name: String, type: SwiftType)] = []
        for (index, (part, partPointer)) in branches.enumerated() {
            let (type, _) = try self.type(
                of: part, at: partPointer, naming: .suggested(name + "Option" + String(index + 1)))
            var caseName = SwiftNames.caseName(type.code.filter { $0.isLetter || $0.isNumber })
            if caseName.isEmpty { caseName = "option" }
            cases.append((SwiftNames.unique(caseName, in: &taken), type))
        }
        add(.alternatives(name: name, cases: cases, exclusive: keyword == "oneOf", summary: summary))
        return .named(name)
    }

    /// The properties of an object schema and of the `allOf` parts it is made of, with what it requires.
    private func collect(
        _ schema: [String: JSONValue], at pointer: String,
        into properties: inout [(key: String, value: JSONValue, pointer: String)], required: inout [String],
        depth: Int = 0
    ) throws(OpenAPIDocumentError) {
        guard depth < 32 else { return }
        if case .array(let parts)? = schema["allOf"] {
            for (index, part) in parts.enumerated() {
                let (resolved, location) = try document.resolve(
                    part, at: PointerText.join(pointer, "allOf", String(index)))
                guard case .object(let members) = resolved else { continue }
                if location != PointerText.join(pointer, "allOf", String(index)) {
                    reportKeywords(members, at: location, isRoot: false)
                }
                try collect(members, at: location, into: &properties, required: &required, depth: depth + 1)
            }
        }
        if case .object(let members)? = schema["properties"] {
            for key in members.keys.sorted() where !properties.contains(where: { $0.key == key }) {
                if let value = members[key] {
                    properties.append((key, value, PointerText.join(pointer, "properties", key)))
                }
            }
        }
        if case .array(let names)? = schema["required"] {
            for case .string(let name) in names where !required.contains(name) { required.append(name) }
        }
        if let additional = schema["additionalProperties"], additional != .bool(true),
            additional != .bool(false)
        {
            report(
                PointerText.join(pointer, "additionalProperties"),
                "members beyond the named properties are not declared (they are ignored)")
        }
    }

    private func structure(
        _ schema: [String: JSONValue], at pointer: String, naming: Naming, summary: String?
    )
        throws(OpenAPIDocumentError) -> SwiftType
    {
        let name = claim(naming)
        var found: [(key: String, value: JSONValue, pointer: String)] = []
        var required: [String] = []
        try collect(schema, at: pointer, into: &found, required: &required)
        // Required properties first, in the order `required` lists them; then the others by name.
        let ordered =
            required.compactMap { key in found.first { $0.key == key } }
            + found.filter { !required.contains($0.key) }
        for key in required where !found.contains(where: { $0.key == key }) {
            report(
                PointerText.join(pointer, "required"),
                "'\(key)' is required but has no schema: it is not declared")
        }
        var taken: Set<String> = []
        var properties: [PropertyDeclaration] = []
        for property in ordered {
            let (type, nullable) = try self.type(
                of: property.value, at: property.pointer,
                naming: .suggested(name + SwiftNames.typeName(property.key)))
            let isRequired = required.contains(property.key)
            if isRequired, nullable {
                report(
                    property.pointer,
                    "a required property that may be null is declared optional (a missing key is accepted too)"
                )
            }
            let resolved =
                (try? document.resolve(property.value, at: property.pointer).value) ?? property.value
            if resolved["default"] != nil {
                report(
                    PointerText.join(property.pointer, "default"),
                    "a property's default is not declared: a missing optional property decodes as nil")
            }
            try properties.append(
                PropertyDeclaration(
                    name: SwiftNames.unique(SwiftNames.memberName(property.key), in: &taken),
                    key: property.key,
                    type: type, optional: !isRequired || nullable,
                    schema: SchemaLiteral.refinement(
                        itemsResolved(valueSchema(resolved, at: property.pointer), at: property.pointer),
                        type: underlying(type), underlying: underlying),
                    summary: resolved["description"]?.stringValue))
        }
        add(.structure(name: name, properties: properties, summary: summary))
        return .named(name)
    }
}
