import CourierPrimitives

/// Turns a parsed document into a `JSONValue`: scalars resolved by the core schema or their tag, aliases
/// replaced by their anchored values, `<<` merge keys applied, and every value counted against a bound so
/// that aliases cannot expand a small text into a huge value.
struct YAMLValueBuilder {
    struct Mark {
        var line: Int
        var column: Int
    }

    let maxNodes: Int
    var nodes = 0
    var anchors: [String: (value: JSONValue, nodes: Int)] = [:]

    init(maxNodes: Int) { self.maxNodes = maxNodes }

    /// The value of `node`, anchors registered in document order.
    mutating func value(of node: YAMLNode) throws(YAMLError) -> JSONValue {
        let mark = Mark(line: node.line, column: node.column)
        let start = nodes
        let value: JSONValue
        switch node.kind {
        case .alias(let name):
            guard let anchored = anchors[name] else {
                throw YAMLError(line: mark.line, column: mark.column, reason: "unknown alias *\(name)")
            }
            try count(anchored.nodes, at: mark)
            return anchored.value
        case .scalar(let text, let plain):
            try count(1, at: mark)
            value = try Self.resolve(text, tag: node.tag, plain: plain, at: mark)
        case .sequence(let items):
            try count(1, at: mark)
            try Self.checkCollectionTag(node.tag, expected: "seq", at: mark)
            var values: [JSONValue] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try self.value(of: item)) }
            value = .array(values)
        case .mapping(let pairs):
            try count(1, at: mark)
            try Self.checkCollectionTag(node.tag, expected: "map", at: mark)
            value = try mapping(pairs)
        }
        if let anchor = node.anchor { anchors[anchor] = (value, nodes - start) }
        return value
    }

    private mutating func mapping(_ pairs: [(key: YAMLNode, value: YAMLNode)]) throws(YAMLError) -> JSONValue
    {
        var members: [String: JSONValue] = [:]
        var merges: [JSONValue] = []
        for (keyNode, valueNode) in pairs {
            let keyMark = Mark(line: keyNode.line, column: keyNode.column)
            let key = try value(of: keyNode)
            let keyText: String
            var plainKey = false
            switch keyNode.kind {
            case .scalar(let text, let plain):
                keyText = text
                plainKey = plain && keyNode.tag == nil
            default:
                guard let text = Self.keyText(key) else {
                    throw YAMLError(
                        line: keyMark.line, column: keyMark.column,
                        reason: "a mapping key must be a scalar, not \(key.typeName)")
                }
                keyText = text
            }
            let member = try value(of: valueNode)
            if keyText == "<<", plainKey, Self.isMergeable(member) {
                merges.append(member)
                continue
            }
            if members[keyText] != nil {
                throw YAMLError(
                    line: keyMark.line, column: keyMark.column, reason: "duplicate key '\(keyText)'")
            }
            members[keyText] = member
        }
        for merge in merges {
            for (key, member) in Self.mergeMembers(merge) where members[key] == nil { members[key] = member }
        }
        return .object(members)
    }

    /// Counts `amount` more nodes, refusing past the bound.
    private mutating func count(_ amount: Int, at mark: Mark) throws(YAMLError) {
        nodes += amount
        if nodes > maxNodes {
            throw YAMLError(
                line: mark.line, column: mark.column,
                reason: "the document expands to more than \(maxNodes) values (an alias bomb?)")
        }
    }

    /// A collection's tag must be the non-specific one or its own core tag.
    private static func checkCollectionTag(_ tag: String?, expected: String, at mark: Mark) throws(YAMLError)
    {
        guard let tag, tag != "!", tag != coreTag + expected else { return }
        throw YAMLError(line: mark.line, column: mark.column, reason: "unsupported tag \(tag)")
    }

    private static func isMergeable(_ value: JSONValue) -> Bool {
        switch value {
        case .object: true
        case .array(let items): items.allSatisfy { if case .object = $0 { true } else { false } }
        default: false
        }
    }

    /// The members a `<<` value brings, earlier mappings of a sequence winning over later ones.
    private static func mergeMembers(_ value: JSONValue) -> [String: JSONValue] {
        switch value {
        case .object(let members):
            return members
        case .array(let items):
            var merged: [String: JSONValue] = [:]
            for case .object(let members) in items {
                for (key, member) in members where merged[key] == nil { merged[key] = member }
            }
            return merged
        default:
            return [:]
        }
    }

    /// The text of a scalar key that came through an alias.
    private static func keyText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        case .null: "null"
        default: nil
        }
    }

    private static let coreTag = "tag:yaml.org,2002:"

    /// A scalar's value by its tag, or by the core schema when it is plain and untagged.
    static func resolve(_ text: String, tag: String?, plain: Bool, at mark: Mark) throws(YAMLError)
        -> JSONValue
    {
        if let tag, tag != "!" {
            let name = tag.hasPrefix(coreTag) ? String(tag.dropFirst(coreTag.count)) : tag
            switch name {
            case "str", "binary", "timestamp": return .string(text)
            case "null", "bool", "int", "float":
                let value = resolvePlain(text)
                let matches: Bool
                switch (name, value) {
                case ("null", .null), ("bool", .bool), ("int", .int), ("float", .double), ("float", .int):
                    matches = true
                default: matches = false
                }
                guard matches else {
                    throw YAMLError(
                        line: mark.line, column: mark.column, reason: "'\(text)' is not a valid !!\(name)")
                }
                if name == "float", case .int(let number) = value { return .double(Double(number)) }
                return value
            default:
                throw YAMLError(line: mark.line, column: mark.column, reason: "unsupported tag \(tag)")
            }
        }
        return plain && tag == nil ? resolvePlain(text) : .string(text)
    }

    /// YAML 1.2 core schema resolution of a plain scalar.
    static func resolvePlain(_ text: String) -> JSONValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
        case ".nan", ".NaN", ".NAN": return .double(.nan)
        default: break
        }
        let utf8 = Array(text.utf8)
        guard let first = utf8.first,
            first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { return .string(text) }
        if text.hasPrefix("0x"), let number = Int64(text.dropFirst(2), radix: 16) { return .int(number) }
        if text.hasPrefix("0o"), let number = Int64(text.dropFirst(2), radix: 8) { return .int(number) }
        if isInteger(utf8) {
            if let number = Int64(text.hasPrefix("+") ? String(text.dropFirst()) : text) {
                return .int(number)
            }
            if let number = Double(text) { return .double(number) }
        }
        if isFloat(utf8), let number = Double(text) { return .double(number) }
        return .string(text)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// `[-+]?[0-9]+`
    private static func isInteger(_ utf8: [UInt8]) -> Bool {
        var index = 0
        if index < utf8.count, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") {
            index += 1
        }
        guard index < utf8.count else { return false }
        return utf8[index...].allSatisfy(isDigit)
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
    private static func isFloat(_ utf8: [UInt8]) -> Bool {
        var index = 0
        if index < utf8.count, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") {
            index += 1
        }
        var digits = 0
        while index < utf8.count, isDigit(utf8[index]) {
            index += 1
            digits += 1
        }
        if index < utf8.count, utf8[index] == UInt8(ascii: ".") {
            index += 1
            while index < utf8.count, isDigit(utf8[index]) {
                index += 1
                digits += 1
            }
        }
        guard digits > 0 else { return false }
        if index < utf8.count, utf8[index] == UInt8(ascii: "e") || utf8[index] == UInt8(ascii: "E") {
            index += 1
            if index < utf8.count, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") {
                index += 1
            }
            guard index < utf8.count else { return false }
            while index < utf8.count, isDigit(utf8[index]) { index += 1 }
        }
        return index == utf8.count
    }
}
