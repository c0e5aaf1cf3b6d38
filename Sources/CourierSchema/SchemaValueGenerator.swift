import CourierPrimitives
import Foundation

/// Makes values that are valid against a document's schemas, the same values for the same seed.
///
/// Each value is checked with ``SchemaValidator`` before it is returned: a schema no value can satisfy,
/// or a pattern outside the supported subset, throws rather than yielding an invalid value.
///
/// ```swift
/// import CourierOpenAPI
///
/// let document = try OpenAPIDocument.load(from: URL(fileURLWithPath: "openapi.yaml"))
/// let generator = SchemaValueGenerator(document: document)
/// let schema: JSONValue = .object(["type": .string("string"), "format": .string("uuid")])
/// let id = try generator.value(for: schema, seed: 7)  // the same uuid for seed 7, every run
/// ```
public struct SchemaValueGenerator: Sendable {
    /// What the schemas' references resolve against, and their dialect.
    package let root: SchemaRoot
    /// Whether a schema's own `example`, `examples` or `default` is used when it is valid.
    public var prefersExamples: Bool

    /// Creates a generator for the schemas under `root`.
    /// - Parameters:
    ///   - root: what the schemas' references resolve against, and their dialect.
    ///   - prefersExamples: use a schema's valid `example`/`examples`/`default` before making one up.
    package init(root: SchemaRoot, prefersExamples: Bool = true) {
        self.root = root
        self.prefersExamples = prefersExamples
    }

    /// How many fresh attempts are made before giving up on a schema.
    static let attempts = 12

    /// A value valid against `schema`.
    /// - Parameters:
    ///   - schema: a schema of the document.
    ///   - seed: the seed; the same seed gives the same value.
    ///   - direction: whether the value is for a request (no `readOnly` properties) or a response (no
    ///     `writeOnly` ones).
    /// - Returns: the value.
    /// - Throws: ``SchemaGenerationError`` when no valid value was found.
    public func value(
        for schema: JSONValue, seed: UInt64, direction: SchemaValidator.Direction = .response
    ) throws(SchemaGenerationError) -> JSONValue {
        let validator = SchemaValidator(root: root)
        var generation = Generation(
            root: root, validator: validator, direction: direction, random: SeededRandom(seed: seed),
            prefersExamples: prefersExamples)
        var last: [SchemaViolation] = []
        for _ in 0..<Self.attempts {
            guard let value = generation.make(schema, depth: 0) else { continue }
            last = validator.validate(value, against: schema, direction: direction)
            if last.isEmpty { return value }
        }
        throw SchemaGenerationError(
            reason: generation.unsupported ?? "no valid value found in \(Self.attempts) attempts",
            violations: last)
    }
}

/// Why no value could be made for a schema.
public struct SchemaGenerationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var reason: String
    /// What the last attempt broke.
    public var violations: [SchemaViolation]

    /// The reason and the last attempt's violations.
    public var description: String {
        ([reason] + violations.map(\.description)).joined(separator: "; ")
    }
}

/// One value being made.
private struct Generation {
    let root: SchemaRoot
    let validator: SchemaValidator
    let direction: SchemaValidator.Direction
    var random: SeededRandom
    let prefersExamples: Bool
    var unsupported: String?

    var isOpenAPI30: Bool { root.dialect == .openAPI30 }

    /// Deeper than this, optional properties are left out and arrays kept at their minimum.
    static let shallow = 3
    static let maxDepth = 24

    // MARK: Flattening

    /// The schema with `$ref`s followed and `allOf` merged into one object.
    func flatten(_ schema: JSONValue, depth: Int = 0) -> [String: JSONValue]? {
        guard depth < 32 else { return [:] }
        switch schema {
        case .bool(true): return [:]
        case .object(var members):
            if let reference = members["$ref"]?.stringValue {
                let target = flatten(root.target(of: reference) ?? .object([:]), depth: depth + 1) ?? [:]
                if isOpenAPI30 { return target }
                members["$ref"] = nil
                members = merge(target, members)
            }
            if case .array(let parts) = members["allOf"] ?? .null {
                members["allOf"] = nil
                for part in parts {
                    guard let flat = flatten(part, depth: depth + 1) else { return nil }
                    members = merge(members, flat)
                }
            }
            return members
        default: return nil
        }
    }

    /// Two schemas' keywords as one, each bound the tighter of the two.
    func merge(_ base: [String: JSONValue], _ extra: [String: JSONValue]) -> [String: JSONValue] {
        var merged = base
        for (key, value) in extra {
            guard let existing = merged[key] else {
                merged[key] = value
                continue
            }
            switch key {
            case "properties":
                if case .object(var left) = existing, case .object(let right) = value {
                    for (name, schema) in right {
                        left[name] = left[name].map { .object(["allOf": .array([$0, schema])]) } ?? schema
                    }
                    merged[key] = .object(left)
                }
            case "required":
                if case .array(let left) = existing, case .array(let right) = value {
                    merged[key] = .array(left + right.filter { !left.contains($0) })
                }
            case "type":
                let left = validator.types(of: .object(["type": existing])) ?? []
                let right = validator.types(of: .object(["type": value])) ?? []
                let common = left.filter { type in
                    right.contains(type) || (type == "integer" && right.contains("number"))
                }
                let narrowed = common + right.filter { $0 == "integer" && left.contains("number") }
                merged[key] = .array(narrowed.map(JSONValue.string))
            case "minimum", "minLength", "minItems", "minProperties":
                merged[key] =
                    max(existing.doubleValue ?? 0, value.doubleValue ?? 0) == existing.doubleValue
                    ? existing : value
            case "maximum", "maxLength", "maxItems", "maxProperties":
                merged[key] =
                    min(existing.doubleValue ?? 0, value.doubleValue ?? 0) == existing.doubleValue
                    ? existing : value
            case "enum":
                if case .array(let left) = existing, case .array(let right) = value {
                    merged[key] = .array(
                        left.filter { item in right.contains { SchemaValidator.equal($0, item) } })
                }
            case "nullable":
                merged[key] = .bool(existing.boolValue == true && value.boolValue == true)
            case "discriminator":
                break
            default:
                break
            }
        }
        return merged
    }

    private static func keyword(_ schema: [String: JSONValue], _ name: String) -> JSONValue? { schema[name] }

    // MARK: Making values

    mutating func make(_ schema: JSONValue, depth: Int) -> JSONValue? {
        guard depth < Self.maxDepth else { return nil }
        if case .bool(false) = schema { return nil }
        guard let flat = flatten(schema) else { return nil }
        if let example = example(flat, original: schema) { return example }
        if let constant = flat["const"] { return constant }
        if case .array(let options) = flat["enum"] ?? .null {
            let usable = options.filter { $0 != .null }
            let pool = usable.isEmpty ? options : usable
            guard !pool.isEmpty else { return nil }
            return pool[random.int(in: 0...(pool.count - 1))]
        }
        if let options = choices(flat) {
            return choose(flat, options, depth: depth)
        }
        return make(flat, type: type(for: flat), depth: depth)
    }

    /// The schema's own example, when asked for and valid.
    mutating func example(_ flat: [String: JSONValue], original: JSONValue) -> JSONValue? {
        guard prefersExamples else { return nil }
        var candidates: [JSONValue] = []
        if let example = flat["example"] { candidates.append(example) }
        if case .array(let examples) = flat["examples"] ?? .null { candidates += examples }
        if let fallback = flat["default"] { candidates.append(fallback) }
        return candidates.first { validator.isValid($0, against: original, direction: direction) }
    }

    func choices(_ flat: [String: JSONValue]) -> [JSONValue]? {
        if case .array(let options) = flat["oneOf"] ?? .null, !options.isEmpty { return options }
        if case .array(let options) = flat["anyOf"] ?? .null, !options.isEmpty { return options }
        return nil
    }

    /// A value of one of the options, the rest of the schema applied too; the discriminator set.
    mutating func choose(_ flat: [String: JSONValue], _ options: [JSONValue], depth: Int) -> JSONValue? {
        var base = flat
        base["oneOf"] = nil
        base["anyOf"] = nil
        let discriminator = flat["discriminator"]
        base["discriminator"] = nil
        let start = random.int(in: 0...(options.count - 1))
        for offset in 0..<options.count {
            let option = options[(start + offset) % options.count]
            guard let optionFlat = flatten(option) else { continue }
            let combined = JSONValue.object(merge(base, optionFlat))
            guard var value = make(combined, depth: depth + 1) else { continue }
            if let property = discriminator?["propertyName"]?.stringValue, case .object(var members) = value {
                members[property] = .string(tag(for: option, discriminator: discriminator))
                value = .object(members)
            }
            if validator.isValid(value, against: .object(flat), direction: direction) { return value }
        }
        return nil
    }

    /// The discriminator value that selects `option`.
    func tag(for option: JSONValue, discriminator: JSONValue?) -> String {
        let reference = option["$ref"]?.stringValue ?? ""
        if case .object(let mapping) = discriminator?["mapping"] ?? .null {
            for (tag, target) in mapping.sorted(by: { $0.key < $1.key })
            where target.stringValue.map(validator.discriminatorTarget) == reference {
                return tag
            }
        }
        return SchemaRoot.componentName(reference) ?? reference
    }

    /// The type to make: the schema's first non-null type, or one its keywords imply.
    func type(for flat: [String: JSONValue]) -> String {
        let types = validator.types(of: .object(flat)) ?? []
        if let first = types.first(where: { $0 != "null" }) { return first }
        if types == ["null"] { return "null" }
        if flat["properties"] != nil || flat["additionalProperties"] != nil || flat["required"] != nil {
            return "object"
        }
        if flat["items"] != nil || flat["prefixItems"] != nil { return "array" }
        if flat["minimum"] != nil || flat["maximum"] != nil || flat["multipleOf"] != nil { return "number" }
        return "string"
    }

    mutating func make(_ flat: [String: JSONValue], type: String, depth: Int) -> JSONValue? {
        switch type {
        case "null": return .null
        case "boolean": return .bool(random.chance(0.5))
        case "integer": return integer(flat)
        case "number": return number(flat)
        case "string": return string(flat)
        case "array": return array(flat, depth: depth)
        case "object": return object(flat, depth: depth)
        default: return nil
        }
    }

    // MARK: Numbers

    func bounds(_ flat: [String: JSONValue]) -> (
        low: Double?, lowExclusive: Bool, high: Double?, highExclusive: Bool
    ) {
        var low = flat["minimum"]?.doubleValue
        var high = flat["maximum"]?.doubleValue
        var lowExclusive = isOpenAPI30 && flat["exclusiveMinimum"]?.boolValue == true
        var highExclusive = isOpenAPI30 && flat["exclusiveMaximum"]?.boolValue == true
        if let bound = flat["exclusiveMinimum"]?.doubleValue, bound >= (low ?? -.infinity) {
            low = bound
            lowExclusive = true
        }
        if let bound = flat["exclusiveMaximum"]?.doubleValue, bound <= (high ?? .infinity) {
            high = bound
            highExclusive = true
        }
        return (low, lowExclusive, high, highExclusive)
    }

    mutating func integer(_ flat: [String: JSONValue]) -> JSONValue? {
        let (lowBound, lowExclusive, highBound, highExclusive) = bounds(flat)
        var low = lowBound.map { lowExclusive ? ($0 + 1).rounded(.down) : $0.rounded(.up) }
        var high = highBound.map { highExclusive ? ($0 - 1).rounded(.up) : $0.rounded(.down) }
        if flat["format"]?.stringValue == "int32" {
            low = max(low ?? -2_147_483_648, -2_147_483_648)
            high = min(high ?? 2_147_483_647, 2_147_483_647)
        }
        let start = low ?? (high.map { min($0 - 100, 1) } ?? 1)
        let end = high ?? (start + 1000)
        // Integers a double holds exactly: up to 2^53, the bounds JavaScript's safe integers reach.
        let exact = 9_007_199_254_740_992.0
        guard start <= end, abs(start) <= exact, abs(end) <= exact else { return nil }
        if let divisor = flat["multipleOf"]?.doubleValue, divisor > 0 {
            let first = (start / divisor).rounded(.up)
            let last = (end / divisor).rounded(.down)
            guard first <= last else { return nil }
            let k = first + Double(random.int(in: 0...Int(min(last - first, 1000))))
            return .int(Int64(k * divisor))
        }
        let span = min(end - start, 1_000_000)
        return .int(Int64(start) + Int64(random.int(in: 0...Int(span))))
    }

    mutating func number(_ flat: [String: JSONValue]) -> JSONValue? {
        let (lowBound, lowExclusive, highBound, highExclusive) = bounds(flat)
        if let divisor = flat["multipleOf"]?.doubleValue, divisor > 0 {
            let start = lowBound ?? (highBound.map { $0 - 100 * divisor } ?? 0)
            let end = highBound ?? (start + 1000 * divisor)
            var first = (start / divisor).rounded(.up)
            var last = (end / divisor).rounded(.down)
            if lowExclusive, first * divisor <= start { first += 1 }
            if highExclusive, last * divisor >= end { last -= 1 }
            guard first <= last else { return nil }
            let k = first + Double(random.int(in: 0...Int(min(last - first, 1000))))
            let value = k * divisor
            return value.rounded() == value && abs(value) < 9e15 ? .int(Int64(value)) : .double(value)
        }
        let start = lowBound ?? (highBound.map { $0 - 100 } ?? 0)
        let end = highBound ?? (start + 1000)
        guard start <= end else { return nil }
        let margin = max((end - start) / 1000, 1e-6)
        let low = lowExclusive ? start + margin : start
        let high = highExclusive ? end - margin : end
        guard low <= high else { return nil }
        let value = (Double.random(in: 0...1, using: &random) * (high - low) + low) * 100
        let rounded = value.rounded() / 100
        return .double((low...high).contains(rounded) ? rounded : low)
    }

    // MARK: Strings

    mutating func string(_ flat: [String: JSONValue]) -> JSONValue? {
        let minimum = flat["minLength"]?.intValue ?? 0
        let maximum = flat["maxLength"]?.intValue ?? max(minimum, 12)
        guard minimum <= maximum else { return nil }
        if let pattern = flat["pattern"]?.stringValue {
            let generator: RegexGenerator
            do {
                generator = try RegexGenerator(pattern)
            } catch {
                unsupported =
                    "the pattern \(pattern) uses \(error.reason), which values are not generated for"
                return nil
            }
            for _ in 0..<20 {
                let text = generator.generate(using: &random)
                let length = text.unicodeScalars.count
                if length >= minimum, length <= maximum, SchemaValidator.matches(text, pattern: pattern) {
                    return .string(text)
                }
            }
            return nil
        }
        if let format = flat["format"]?.stringValue, let text = formatted(format) {
            return .string(text)
        }
        let length = random.int(in: max(minimum, min(maximum, 4))...min(maximum, max(minimum, 12)))
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return .string(String((0..<length).map { _ in letters[random.int(in: 0...25)] }))
    }

    mutating func formatted(_ format: String) -> String? {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        func hex(_ count: Int) -> String {
            String((0..<count).map { _ in Array("0123456789abcdef")[random.int(in: 0...15)] })
        }
        let year = random.int(in: 2000...2030)
        let date = "\(year)-\(two(random.int(in: 1...12)))-\(two(random.int(in: 1...28)))"
        let time =
            "\(two(random.int(in: 0...23))):\(two(random.int(in: 0...59))):\(two(random.int(in: 0...59)))"
        switch format {
        case "date-time": return date + "T" + time + "Z"
        case "date": return date
        case "time": return time + "Z"
        case "uuid": return "\(hex(8))-\(hex(4))-4\(hex(3))-a\(hex(3))-\(hex(12))"
        case "email": return "user\(random.int(in: 1...999))@example.com"
        case "uri", "url": return "https://example.com/\(hex(6))"
        case "hostname": return "host\(random.int(in: 1...99)).example.com"
        case "ipv4": return (0..<4).map { _ in String(random.int(in: 1...254)) }.joined(separator: ".")
        case "ipv6": return "2001:db8::" + hex(4)
        case "byte": return Data((0..<6).map { _ in UInt8(random.int(in: 0...255)) }).base64EncodedString()
        default: return nil
        }
    }

    // MARK: Arrays and objects

    mutating func array(_ flat: [String: JSONValue], depth: Int) -> JSONValue? {
        let minimum = flat["minItems"]?.intValue ?? 0
        let maximum = flat["maxItems"]?.intValue ?? (minimum + 3)
        guard minimum <= maximum else { return nil }
        let wanted =
            depth >= Self.shallow
            ? minimum : random.int(in: max(minimum, min(1, maximum))...min(maximum, minimum + 2))
        var prefix: [JSONValue] = []
        if !isOpenAPI30, case .array(let schemas) = flat["prefixItems"] ?? .null { prefix = schemas }
        let itemSchema = flat["items"] ?? .object([:])
        let unique = flat["uniqueItems"]?.boolValue == true
        var items: [JSONValue] = []
        for index in 0..<wanted {
            let schema = index < prefix.count ? prefix[index] : itemSchema
            var made: JSONValue?
            for _ in 0..<(unique ? 8 : 1) {
                guard let candidate = make(schema, depth: depth + 1) else { break }
                if !unique || !items.contains(where: { SchemaValidator.equal($0, candidate) }) {
                    made = candidate
                    break
                }
            }
            guard let made else {
                if items.count >= minimum { break }
                return nil
            }
            items.append(made)
        }
        return .array(items)
    }

    mutating func object(_ flat: [String: JSONValue], depth: Int) -> JSONValue? {
        let properties: [String: JSONValue]
        if case .object(let named) = flat["properties"] ?? .null {
            properties = named
        } else {
            properties = [:]
        }
        var required: Set<String> = []
        if case .array(let names) = flat["required"] ?? .null {
            required = Set(names.compactMap(\.stringValue))
        }
        var members: [String: JSONValue] = [:]
        let maximum = flat["maxProperties"]?.intValue ?? Int.max
        for name in properties.keys.sorted() {
            guard let schema = properties[name] else { continue }
            let property = flatten(schema) ?? [:]
            let hidden =
                (direction == .request && property["readOnly"]?.boolValue == true)
                || (direction == .response && property["writeOnly"]?.boolValue == true)
            let isRequired = required.contains(name) && !hidden
            if !isRequired {
                if hidden || depth >= Self.shallow || members.count >= maximum || !random.chance(0.8) {
                    continue
                }
            }
            guard let value = make(schema, depth: depth + 1) else {
                if isRequired { return nil }
                continue
            }
            members[name] = value
        }
        for name in required.sorted() where members[name] == nil && properties[name] == nil {
            let additional = flat["additionalProperties"] ?? .object([:])
            guard let value = make(additional == .bool(true) ? .object([:]) : additional, depth: depth + 1)
            else {
                return nil
            }
            members[name] = value
        }
        let minimum = flat["minProperties"]?.intValue ?? 0
        var extra = 1
        while members.count < minimum {
            let additional = flat["additionalProperties"] ?? .bool(true)
            if additional == .bool(false) {
                guard let name = properties.keys.sorted().first(where: { members[$0] == nil }),
                    let value = make(properties[name] ?? .object([:]), depth: depth + 1)
                else { return nil }
                members[name] = value
                continue
            }
            guard
                let value = make(
                    additional == .bool(true) ? .object(["type": .string("string")]) : additional,
                    depth: depth + 1)
            else { return nil }
            members["extra\(extra)"] = value
            extra += 1
        }
        return .object(members)
    }
}
