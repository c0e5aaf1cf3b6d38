import CourierPrimitives

/// `Schema` expressions for generated code: the rules a Swift type does not say (bounds, patterns,
/// formats), and sample values that compile.
enum SchemaLiteral {
    /// The Swift integer of each OpenAPI integer format.
    static let integerTypes: [String: String] = [
        "int8": "Int8", "int16": "Int16", "int32": "Int32", "int64": "Int64", "uint8": "UInt8",
        "uint16": "UInt16",
        "uint32": "UInt32", "uint64": "UInt64",
    ]

    /// The bounds of a fixed-width Swift integer, as far as `Int` holds them.
    private static let widthBounds: [String: (minimum: Int, maximum: Int?)] = [
        "Int8": (Int(Int8.min), Int(Int8.max)), "Int16": (Int(Int16.min), Int(Int16.max)),
        "Int32": (Int(Int32.min), Int(Int32.max)), "UInt8": (0, Int(UInt8.max)),
        "UInt16": (0, Int(UInt16.max)),
        "UInt32": (0, Int(UInt32.max)), "UInt64": (0, nil),
    ]

    /// Whether `type` is one of Swift's integers.
    static func isInteger(_ type: SwiftType) -> Bool {
        if case .builtin(let name) = type { return name == "Int" || integerTypes.values.contains(name) }
        return false
    }

    /// The schema of a string, an integer or a number with its rules, or nil when it has none beyond
    /// its type.
    private static func scalar(_ schema: JSONValue, type: SwiftType) -> String? {
        switch type {
        case .builtin("String"), .builtin("URL"):
            // A URL's format is its type's; its length and pattern are rules the type does not say.
            if type == .builtin("URL"),
                ["minLength", "maxLength", "pattern"].allSatisfy({ schema[$0] == nil })
            {
                return nil
            }
            var arguments: [String] = []
            if let value = schema["minLength"]?.intValue, value > 0 {
                arguments.append("minLength: \(value)")
            }
            if let value = schema["maxLength"]?.intValue { arguments.append("maxLength: \(value)") }
            if let format = schema["format"]?.stringValue {
                arguments.append("format: \(SwiftNames.literal(format))")
            }
            if let pattern = schema["pattern"]?.stringValue {
                arguments.append("pattern: \(SwiftNames.literal(pattern))")
            }
            return arguments.isEmpty ? nil : ".string(.init(\(arguments.joined(separator: ", "))))"
        case .builtin(let name) where isInteger(type):
            var minimum = schema["minimum"]?.intValue
            var maximum = schema["maximum"]?.intValue
            guard minimum != nil || maximum != nil else { return nil }
            if let width = widthBounds[name] {  // the bounds that say the width, kept beside the written one
                minimum = minimum ?? width.minimum
                maximum = maximum ?? width.maximum
            }
            let arguments = [minimum.map { "minimum: \($0)" }, maximum.map { "maximum: \($0)" }].compactMap {
                $0
            }
            return ".integer(\(arguments.joined(separator: ", ")))"
        case .builtin("Double"), .builtin("Float"):
            let bounds = ["minimum", "maximum"].compactMap { key in
                schema[key]?.doubleValue.flatMap { $0.isFinite ? "\(key): \($0)" : nil }
            }
            return bounds.isEmpty ? nil : ".number(\(bounds.joined(separator: ", ")))"
        default:
            return nil
        }
    }

    /// The `Schema` of a property or a parameter when its rules say more than its Swift type: a
    /// string's (or a URL's) length, format or pattern, a number's or an integer's bounds, or such a
    /// value in an array or as a map's values.
    /// - Parameters:
    ///   - schema: the value's schema, its array items' references already followed.
    ///   - type: the value's Swift type.
    ///   - underlying: the type a type alias stands for (an array's items may be a `typealias`).
    static func refinement(
        _ schema: JSONValue, type: SwiftType, underlying: (SwiftType) -> SwiftType = { $0 }
    ) -> String? {
        if let rules = scalar(schema, type: type) { return rules }
        if case .dictionary(let value) = type, case .object(let members)? = schema["additionalProperties"],
            members["$ref"] == nil,
            let rules = refinement(.object(members), type: underlying(value), underlying: underlying)
        {
            return ".map(\(rules))"
        }
        if case .array(let item) = type, let items = schema["items"],
            let rules = refinement(items, type: underlying(item), underlying: underlying)
        {
            return ".array(\(rules))"
        }
        return nil
    }

    /// A value of `type` as code: the schema's example, default or first enum value when it has one
    /// of the right kind, else a placeholder.
    static func sample(
        _ type: SwiftType, schema: JSONValue?, models: [String: ModelDeclaration], depth: Int = 0
    ) -> String {
        let known = schema.flatMap {
            $0["example"] ?? $0["default"] ?? $0["examples"].flatMap(first) ?? $0["enum"].flatMap(first)
        }
        switch type {
        case .builtin("String"):
            return SwiftNames.literal(known?.stringValue ?? "string")
        case .builtin where isInteger(type):
            if let value = known?.intValue { return String(value) }
            return String(max(schema?["minimum"]?.intValue ?? 1, 1))
        case .builtin("Double"), .builtin("Float"):
            if let value = known?.doubleValue, value.isFinite { return String(value) }
            return "1.0"
        case .builtin("Bool"): return known?.boolValue == false ? "false" : "true"
        case .builtin("Date"): return "Date(timeIntervalSince1970: 0)"
        case .builtin("URL"): return "URL(fileURLWithPath: \"/\")"
        case .builtin("UUID"): return "UUID()"
        case .builtin("Data"): return "Data()"
        case .builtin: return ".null"
        case .array: return "[]"
        case .dictionary: return "[:]"
        case .named(let name):
            guard depth < 16, let model = models[name] else { return "\(name)?.none ?? nil" }
            switch model {
            case .stringEnum(_, let cases, _):
                if let text = known?.stringValue, let match = cases.first(where: { $0.raw == text }) {
                    return ".\(SwiftNames.code(match.name))"
                }
                return cases.first.map { ".\(SwiftNames.code($0.name))" } ?? "nil"
            case .alternatives(_, let cases, _, _):
                guard let first = cases.first else { return "nil" }
                return
                    "\(name).\(SwiftNames.code(first.name))(\(sample(first.type, schema: nil, models: models, depth: depth + 1)))"
            case .alias(_, let type, _):
                return sample(type, schema: schema, models: models, depth: depth + 1)
            case .structure(_, let properties, _):
                let arguments = properties.filter { !$0.optional }.map { property in
                    "\(property.name.trimmingBackticks): \(sample(property.type, schema: nil, models: models, depth: depth + 1))"
                }
                return "\(name)(\(arguments.joined(separator: ", ")))"
            }
        }
    }

    private static func first(_ value: JSONValue) -> JSONValue? {
        if case .array(let list) = value { return list.first }
        return nil
    }
}

extension String {
    var trimmingBackticks: String { filter { $0 != "`" } }
}
