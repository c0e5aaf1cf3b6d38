import CourierPrimitives
import Foundation

/// Checks values against a document's schemas: OpenAPI 3.0's dialect (`nullable`, boolean exclusive
/// bounds) or, for 3.1, the JSON Schema 2020-12 keywords an API uses.
///
/// Every violation is reported with the JSON path of the value at fault and the keyword it breaks.
/// The same validator checks a declared API's values, through the JSON Schema its declaration writes.
///
/// ```swift
/// import CourierOpenAPI
///
/// let document = try OpenAPIDocument.load(from: URL(fileURLWithPath: "openapi.yaml"))
/// let validator = SchemaValidator(document: document)
/// let schema: JSONValue = .object(["type": .string("string"), "maxLength": .int(3)])
/// let violations = validator.validate(.string("toolong"), against: schema)
/// // [$: longer than 3 characters (maxLength)]
/// ```
public struct SchemaValidator: Sendable {
    /// Which way a value travels, for `readOnly` and `writeOnly` properties.
    public enum Direction: Sendable {
        /// Sent by a client: a required `readOnly` property may be left out.
        case request
        /// Sent by a server: a required `writeOnly` property may be left out.
        case response
    }

    /// What the schemas' references resolve against, and their dialect.
    package let root: SchemaRoot

    /// The most schemas entered within one another before validation gives up on a cycle.
    static let maxDepth = 200

    /// The most violations one validation reports: a hostile value cannot make the report grow with it.
    public static let maxViolations = 1_000

    /// Creates a validator for the schemas under `root`.
    package init(root: SchemaRoot) {
        self.root = root
    }

    /// Checks `value` against `schema`.
    /// - Parameters:
    ///   - value: the value.
    ///   - schema: a schema of the document (references are followed).
    ///   - direction: whether the value is a request's or a response's.
    ///   - path: the JSON path to report the value at.
    ///   - limit: the most violations to report (``maxViolations`` unless told).
    /// - Returns: every violation up to `limit`, in document order; empty when the value is valid.
    public func validate(
        _ value: JSONValue, against schema: JSONValue, direction: Direction = .response, path: String = "$",
        limit: Int = maxViolations
    ) -> [SchemaViolation] {
        var run = Run(validator: self, direction: direction, limit: limit)
        run.check(value, schema, path: path, depth: 0)
        return run.violations
    }

    /// Whether `value` is valid against `schema`.
    /// - Parameters:
    ///   - value: the value.
    ///   - schema: the schema.
    ///   - direction: whether the value is a request's or a response's.
    /// - Returns: true when nothing is violated.
    public func isValid(_ value: JSONValue, against schema: JSONValue, direction: Direction = .response)
        -> Bool
    {
        validate(value, against: schema, direction: direction, limit: 1).isEmpty
    }

    /// A value that arrives as text (a parameter, a form field, an XML element) as the JSON value
    /// `schema` types it: `7` for an integer, `true` for a boolean, `null` for an empty or `null` text
    /// where null is allowed and a string is not, else the text itself (which the schema then refuses if
    /// it wants another type). The types are the schema's own and those of its `allOf` parts and
    /// `oneOf`/`anyOf` options, references followed.
    package func value(ofText text: String, for schema: JSONValue) -> JSONValue {
        let types = textTypes(of: schema, depth: 0)
        if types.contains("integer"), let number = Int64(text) { return .int(number) }
        if types.contains("number"), let number = Double(text), number.isFinite {
            return Int64(exactly: number).map(JSONValue.int) ?? .double(number)
        }
        if types.contains("boolean"), text == "true" || text == "false" { return .bool(text == "true") }
        if types.contains("null"), text.isEmpty || text == "null", !types.contains("string") { return .null }
        return .string(text)
    }

    /// Every type `schema` or one of its parts or options allows, in the order they are written.
    private func textTypes(of schema: JSONValue, depth: Int) -> [String] {
        // A reference cycle through the parts ends here: its types are those found so far.
        guard depth < Self.maxTextTypeDepth else { return [] }
        let resolved = root.resolve(schema)
        var found = types(of: resolved) ?? []
        for key in ["allOf", "oneOf", "anyOf"] {
            guard case .array(let parts) = resolved[key] ?? .null else { continue }
            for part in parts {
                found += textTypes(of: part, depth: depth + 1).filter { !found.contains($0) }
            }
        }
        return found
    }

    /// The most schemas within one another searched for a text value's types.
    static let maxTextTypeDepth = 32

    private static let expressions = Locked<[String: NSRegularExpression]>([:])

    /// A compiled pattern, cached; nil when it does not compile.
    static func expression(_ pattern: String) -> NSRegularExpression? {
        if let cached = expressions.withLock({ $0[pattern] }) { return cached }
        guard let compiled = try? NSRegularExpression(pattern: pattern) else { return nil }
        expressions.withLock { $0[pattern] = compiled }
        return compiled
    }

    /// Whether `text` contains a match of `pattern` (JSON Schema patterns are not anchored).
    static func matches(_ text: String, pattern: String) -> Bool {
        guard let expression = expression(pattern) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, range: range) != nil
    }

    /// Whether two JSON values are equal, numbers compared by value (`1` equals `1.0`).
    static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.int, .double), (.double, .int), (.int, .int), (.double, .double):
            return lhs.doubleValue == rhs.doubleValue
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.allSatisfy { key, value in right[key].map { equal(value, $0) } ?? false }
        default:
            return lhs == rhs
        }
    }

    /// Whether `value` is of the JSON Schema type `type`.
    static func hasType(_ value: JSONValue, _ type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
            ("number", .int), ("number", .double), ("integer", .int):
            return true
        case ("integer", .double(let number)):
            return number.isFinite && number.rounded() == number
        default:
            return false
        }
    }

    /// The types a schema allows, nil when it says none.
    func types(of schema: JSONValue) -> [String]? {
        switch schema["type"] {
        case .string(let type)?: [type]
        case .array(let types)?: types.compactMap(\.stringValue)
        default: nil
        }
    }

    /// The reference a discriminator's mapping value names, in the document's canonical form.
    func discriminatorTarget(_ mapped: String) -> String {
        mapped.contains("#") || mapped.contains("/") ? mapped : "#/components/schemas/" + mapped
    }

    /// The schema a discriminated value selects, or nil when the discriminator does not apply.
    func discriminated(_ value: JSONValue, _ schema: JSONValue) -> Selection? {
        guard let discriminator = schema["discriminator"],
            let property = discriminator["propertyName"]?.stringValue,
            schema["oneOf"] != nil || schema["anyOf"] != nil, case .object(let members) = value
        else { return nil }
        guard let tag = members[property]?.stringValue else {
            return .broken("the discriminator property '\(property)' is missing")
        }
        let mapped = discriminator["mapping"]?[tag]?.stringValue ?? tag
        let reference = discriminatorTarget(mapped)
        guard root.target(of: reference) != nil else {
            return .broken("'\(tag)' names no schema for '\(property)'")
        }
        return .schema(.object(["$ref": .string(reference)]))
    }

    /// What a discriminator selects: a schema, or a reason it selects none.
    enum Selection {
        case schema(JSONValue)
        case broken(String)
    }
}

/// One validation: the violations found so far.
private struct Run {
    let validator: SchemaValidator
    let direction: SchemaValidator.Direction
    /// The most violations kept; checking stops once they are found.
    let limit: Int
    var violations: [SchemaViolation] = []

    var isOpenAPI30: Bool { validator.root.dialect == .openAPI30 }

    init(validator: SchemaValidator, direction: SchemaValidator.Direction, limit: Int) {
        self.validator = validator
        self.direction = direction
        self.limit = limit
    }

    mutating func fail(_ path: String, _ rule: String, _ message: String) {
        guard violations.count < limit else { return }
        violations.append(SchemaViolation(path: path, rule: rule, message: message))
    }

    /// Whether `value` passes `schema`, without keeping what it breaks (the first violation decides).
    func passes(_ value: JSONValue, _ schema: JSONValue, path: String, depth: Int) -> Bool {
        var trial = Run(validator: validator, direction: direction, limit: 1)
        trial.check(value, schema, path: path, depth: depth)
        return trial.violations.isEmpty
    }

    mutating func check(_ value: JSONValue, _ schema: JSONValue, path: String, depth: Int) {
        guard violations.count < limit else { return }
        guard depth < SchemaValidator.maxDepth else {
            return fail(
                path, "$ref", "the schema nests deeper than \(SchemaValidator.maxDepth) levels (a cycle?)")
        }
        switch schema {
        case .bool(true): return
        case .bool(false): return fail(path, "false", "no value is allowed here")
        case .object: break
        default: return
        }
        if let reference = schema["$ref"]?.stringValue {
            let target = validator.root.target(of: reference) ?? .object([:])
            check(value, target, path: path, depth: depth + 1)
            if isOpenAPI30 { return }
        }
        if value == .null, isOpenAPI30, schema["nullable"]?.boolValue == true { return }
        checkType(value, schema, path: path)
        if let options = schema["enum"], case .array(let allowed) = options,
            !allowed.contains(where: { SchemaValidator.equal($0, value) })
        {
            let list = allowed.prefix(10).map(\.text).joined(separator: ", ")
            fail(path, "enum", "\(value.text) is not one of \(list)")
        }
        if let constant = schema["const"], !SchemaValidator.equal(constant, value) {
            fail(path, "const", "must be \(constant.text)")
        }
        checkComposition(value, schema, path: path, depth: depth)
        switch value {
        case .int, .double: checkNumber(value.doubleValue ?? 0, exact: value, schema, path: path)
        case .string(let text): checkString(text, schema, path: path)
        case .array(let items): checkArray(items, schema, path: path, depth: depth)
        case .object(let members): checkObject(members, schema, path: path, depth: depth)
        default: break
        }
    }

    mutating func checkType(_ value: JSONValue, _ schema: JSONValue, path: String) {
        guard let types = validator.types(of: schema) else { return }
        var allowed = types
        if isOpenAPI30, schema["nullable"]?.boolValue == true { allowed.append("null") }
        guard !allowed.contains(where: { SchemaValidator.hasType(value, $0) }) else { return }
        fail(path, "type", "expected \(allowed.joined(separator: " or ")), got \(value.typeName)")
    }

    mutating func checkComposition(_ value: JSONValue, _ schema: JSONValue, path: String, depth: Int) {
        if case .array(let all) = schema["allOf"] ?? .null {
            for part in all { check(value, part, path: path, depth: depth + 1) }
        }
        if let selected = validator.discriminated(value, schema) {
            switch selected {
            case .schema(let target): check(value, target, path: path, depth: depth + 1)
            case .broken(let message): fail(path, "discriminator", message)
            }
        } else {
            if case .array(let any) = schema["anyOf"] ?? .null {
                if value != .null, let only = Self.nonNullOption(any) {
                    // `anyOf: [X, {type: null}]` is X or null: X's own violations say what is wrong.
                    check(value, only, path: path, depth: depth + 1)
                } else if !any.contains(where: { passes(value, $0, path: path, depth: depth + 1) }) {
                    fail(path, "anyOf", "matches none of the \(any.count) schemas of anyOf")
                }
            }
            if case .array(let one) = schema["oneOf"] ?? .null {
                let matching = one.filter { passes(value, $0, path: path, depth: depth + 1) }.count
                if matching != 1 {
                    fail(
                        path, "oneOf",
                        "matches \(matching) of the \(one.count) schemas of oneOf, not exactly one")
                }
            }
        }
        if let not = schema["not"], passes(value, not, path: path, depth: depth + 1) {
            fail(path, "not", "matches the schema of not")
        }
        if let condition = schema["if"], !isOpenAPI30 {
            if passes(value, condition, path: path, depth: depth + 1) {
                if let then = schema["then"] { check(value, then, path: path, depth: depth + 1) }
            } else if let otherwise = schema["else"] {
                check(value, otherwise, path: path, depth: depth + 1)
            }
        }
    }

    /// The other option of a two-option `anyOf` whose one option is `{"type": "null"}`, else nil.
    static func nonNullOption(_ options: [JSONValue]) -> JSONValue? {
        guard options.count == 2 else { return nil }
        let null: JSONValue = .object(["type": .string("null")])
        if options[1] == null { return options[0] }
        if options[0] == null { return options[1] }
        return nil
    }

    mutating func checkNumber(_ number: Double, exact: JSONValue, _ schema: JSONValue, path: String) {
        if let minimum = schema["minimum"]?.doubleValue {
            let exclusive = isOpenAPI30 && schema["exclusiveMinimum"]?.boolValue == true
            if exclusive ? number <= minimum : number < minimum {
                fail(
                    path, exclusive ? "exclusiveMinimum" : "minimum",
                    "must be \(exclusive ? ">" : ">=") \(minimum.json)")
            }
        }
        if let maximum = schema["maximum"]?.doubleValue {
            let exclusive = isOpenAPI30 && schema["exclusiveMaximum"]?.boolValue == true
            if exclusive ? number >= maximum : number > maximum {
                fail(
                    path, exclusive ? "exclusiveMaximum" : "maximum",
                    "must be \(exclusive ? "<" : "<=") \(maximum.json)")
            }
        }
        if let bound = schema["exclusiveMinimum"]?.doubleValue, number <= bound {
            fail(path, "exclusiveMinimum", "must be > \(bound.json)")
        }
        if let bound = schema["exclusiveMaximum"]?.doubleValue, number >= bound {
            fail(path, "exclusiveMaximum", "must be < \(bound.json)")
        }
        if let divisor = schema["multipleOf"]?.doubleValue, divisor > 0 {
            let quotient = number / divisor
            if abs(quotient - quotient.rounded()) > 1e-9 * max(1, abs(quotient)) {
                fail(path, "multipleOf", "must be a multiple of \(divisor.json)")
            }
        }
        switch schema["format"]?.stringValue {
        case "int32" where number < Double(Int32.min) || number > Double(Int32.max):
            fail(path, "format", "out of the int32 range")
        // Every integer in range reads as `.int`; a `.double` this large (even one that rounds to -2⁶³)
        // was written outside it.
        case "int64" where exact.isDouble && abs(number) >= 9_223_372_036_854_775_808.0:
            fail(path, "format", "out of the int64 range")
        case "float" where number.isFinite && abs(number) > Double(Float.greatestFiniteMagnitude):
            fail(path, "format", "out of the float range")
        default:
            break
        }
    }

    mutating func checkString(_ text: String, _ schema: JSONValue, path: String) {
        let length = text.unicodeScalars.count
        if let minimum = schema["minLength"]?.intValue, length < minimum {
            fail(path, "minLength", "shorter than \(minimum) characters")
        }
        if let maximum = schema["maxLength"]?.intValue, length > maximum {
            fail(path, "maxLength", "longer than \(maximum) characters")
        }
        if let pattern = schema["pattern"]?.stringValue, !SchemaValidator.matches(text, pattern: pattern) {
            fail(path, "pattern", "does not match \(pattern)")
        }
        if let format = schema["format"]?.stringValue, StringFormats.check(format, text) == false {
            fail(path, "format", "not a valid \(format)")
        }
    }

    mutating func checkArray(_ items: [JSONValue], _ schema: JSONValue, path: String, depth: Int) {
        if let minimum = schema["minItems"]?.intValue, items.count < minimum {
            fail(path, "minItems", "fewer than \(minimum) items")
        }
        if let maximum = schema["maxItems"]?.intValue, items.count > maximum {
            fail(path, "maxItems", "more than \(maximum) items")
        }
        if schema["uniqueItems"]?.boolValue == true {
            for index in items.indices.dropFirst()
            where items[..<index].contains(where: { SchemaValidator.equal($0, items[index]) }) {
                fail(JSONPath.index(path, index), "uniqueItems", "repeats an earlier item")
            }
        }
        var first = 0
        if !isOpenAPI30, case .array(let prefix) = schema["prefixItems"] ?? .null {
            for (index, itemSchema) in prefix.enumerated() where index < items.count {
                check(items[index], itemSchema, path: JSONPath.index(path, index), depth: depth + 1)
            }
            first = prefix.count
        }
        if let itemSchema = schema["items"] {
            for index in items.indices where index >= first {
                check(items[index], itemSchema, path: JSONPath.index(path, index), depth: depth + 1)
            }
        }
        if !isOpenAPI30, let contains = schema["contains"],
            !items.contains(where: { passes($0, contains, path: path, depth: depth + 1) })
        {
            fail(path, "contains", "no item matches the schema of contains")
        }
    }

    mutating func checkObject(_ members: [String: JSONValue], _ schema: JSONValue, path: String, depth: Int) {
        let properties: [String: JSONValue]
        if case .object(let named) = schema["properties"] ?? .null {
            properties = named
        } else {
            properties = [:]
        }
        if case .array(let required) = schema["required"] ?? .null {
            for case .string(let name) in required where members[name] == nil {
                let property = properties[name].map { validator.root.resolve($0) }
                if direction == .request, property?["readOnly"]?.boolValue == true { continue }
                if direction == .response, property?["writeOnly"]?.boolValue == true { continue }
                fail(JSONPath.member(path, name), "required", "required property '\(name)' is missing")
            }
        }
        if let minimum = schema["minProperties"]?.intValue, members.count < minimum {
            fail(path, "minProperties", "fewer than \(minimum) properties")
        }
        if let maximum = schema["maxProperties"]?.intValue, members.count > maximum {
            fail(path, "maxProperties", "more than \(maximum) properties")
        }
        var patterns: [(String, JSONValue)] = []
        if !isOpenAPI30, case .object(let named) = schema["patternProperties"] ?? .null {
            patterns = named.sorted { $0.key < $1.key }
        }
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            let memberPath = JSONPath.member(path, name)
            var known = false
            if let property = properties[name] {
                check(member, property, path: memberPath, depth: depth + 1)
                known = true
            }
            for (pattern, patternSchema) in patterns where SchemaValidator.matches(name, pattern: pattern) {
                check(member, patternSchema, path: memberPath, depth: depth + 1)
                known = true
            }
            if !isOpenAPI30, let names = schema["propertyNames"] {
                check(.string(name), names, path: memberPath, depth: depth + 1)
            }
            guard !known, let additional = schema["additionalProperties"] else { continue }
            if additional == .bool(false) {
                fail(memberPath, "additionalProperties", "property '\(name)' is not allowed")
            } else {
                check(member, additional, path: memberPath, depth: depth + 1)
            }
        }
    }
}

extension JSONValue {
    /// Whether the number was read as a double (it had a fraction, an exponent, or was past Int64).
    var isDouble: Bool {
        if case .double = self { return true }
        return false
    }
}

extension Double {

    /// The number as JSON writes it: `3`, not `3.0`.
    var json: String {
        if rounded() == self, abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }
}
