import CYAML
import CourierPrimitives
import Foundation

/// YAML text read into a `JSONValue`, the way OpenAPI documents are written.
///
/// Scalars follow YAML 1.2's core schema (`true`, `null`, `~`, `12`, `0x1F`, `1.5e3`, `.inf`); a quoted
/// scalar, or one tagged `!!str`, is always a string. Mapping keys are kept as written, so `200:` is the
/// key `"200"`. Anchors, aliases and `<<` merge keys are honoured. A duplicate key, a key that is not a
/// scalar, a second document in the stream and text that is not YAML are refused with their line and
/// column, and so is a document whose aliases would expand past a bound (an alias bomb).
///
/// ```swift
/// let value = try YAML.parse(Data("openapi: 3.1.0\ninfo: {title: Notes, version: '1'}\n".utf8))
/// let title = value["info"]?["title"]?.stringValue  // "Notes"
/// ```
public enum YAML {
    /// The most nodes a document may expand to, aliases counted each time they are used.
    public static let defaultMaxNodes = 4_000_000

    /// Parses one YAML document.
    /// - Parameters:
    ///   - data: UTF-8 (or UTF-16 with a byte-order mark) YAML text.
    ///   - maxNodes: the most values the document may expand to, counting every use of an alias.
    /// - Returns: the document as a JSON value; an empty stream is `null`.
    /// - Throws: ``YAMLError`` with the line and column of the problem.
    public static func parse(_ data: Data, maxNodes: Int = defaultMaxNodes) throws(YAMLError) -> JSONValue {
        var reader = YAMLEventReader(maxNodes: maxNodes)
        return try reader.read(data)
    }
}

/// Why YAML text could not be read, and where.
public struct YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column of the problem.
    public var column: Int
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - line: the 1-based line.
    ///   - column: the 1-based column.
    ///   - reason: what is wrong.
    public init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `line L, column C: reason`.
    public var description: String { "line \(line), column \(column): \(reason)" }
}

/// Turns libyaml's events into a value, one container frame per open mapping or sequence.
private struct YAMLEventReader {
    let maxNodes: Int
    var nodes = 0
    var anchors: [String: (value: JSONValue, nodes: Int)] = [:]
    var stack: [Frame] = []
    var result: JSONValue?
    var documents = 0

    init(maxNodes: Int) { self.maxNodes = maxNodes }

    struct Mark {
        var line: Int
        var column: Int
        init(_ mark: yaml_mark_t) {
            line = Int(mark.line) + 1
            column = Int(mark.column) + 1
        }
    }

    enum Kind {
        case sequence([JSONValue])
        case mapping([String: JSONValue], key: (text: String, mark: Mark, plain: Bool)?, merges: [JSONValue])
    }

    struct Frame {
        var kind: Kind
        var anchor: String?
        var startNodes: Int
    }

    mutating func read(_ data: Data) throws(YAMLError) -> JSONValue {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw YAMLError(line: 1, column: 1, reason: "the YAML parser could not start")
        }
        defer { yaml_parser_delete(&parser) }
        let bytes = [UInt8](data)
        let outcome: Result<JSONValue, YAMLError> = bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            do throws(YAMLError) {
                return .success(try readEvents(&parser))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    private mutating func readEvents(_ parser: inout yaml_parser_t) throws(YAMLError) -> JSONValue {
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else {
                let mark = Mark(parser.problem_mark)
                let problem = parser.problem.map { String(cString: $0) } ?? "not YAML"
                let context = parser.context.map { String(cString: $0) + ": " } ?? ""
                throw YAMLError(
                    line: mark.line, column: mark.column, reason: "malformed YAML: " + context + problem)
            }
            defer { yaml_event_delete(&event) }
            let mark = Mark(event.start_mark)
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return result ?? .null
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    throw YAMLError(
                        line: mark.line, column: mark.column,
                        reason: "a second document in the stream; one document is read")
                }
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = Self.string(scalar.value, Int(scalar.length))
                let tag = scalar.tag.map { String(cString: $0) }
                let value = try Self.resolve(
                    text, tag: tag, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE, at: mark)
                try count(1, at: mark)
                let anchor = scalar.anchor.map { String(cString: $0) }
                if let anchor { anchors[anchor] = (value, 1) }
                try add(value, text: text, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE, at: mark)
            case YAML_ALIAS_EVENT:
                let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
                guard let anchored = anchors[name] else {
                    throw YAMLError(line: mark.line, column: mark.column, reason: "unknown alias *\(name)")
                }
                try count(anchored.nodes, at: mark)
                try add(anchored.value, text: anchored.value.stringValue, plain: false, at: mark)
            case YAML_SEQUENCE_START_EVENT:
                let anchor = event.data.sequence_start.anchor.map { String(cString: $0) }
                try count(1, at: mark)
                stack.append(Frame(kind: .sequence([]), anchor: anchor, startNodes: nodes))
            case YAML_MAPPING_START_EVENT:
                let anchor = event.data.mapping_start.anchor.map { String(cString: $0) }
                try count(1, at: mark)
                stack.append(
                    Frame(kind: .mapping([:], key: nil, merges: []), anchor: anchor, startNodes: nodes))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = stack.popLast() else { continue }
                let value: JSONValue
                switch frame.kind {
                case .sequence(let items):
                    value = .array(items)
                case .mapping(var members, _, let merges):
                    for merge in merges {
                        for (key, member) in Self.mergeMembers(merge) where members[key] == nil {
                            members[key] = member
                        }
                    }
                    value = .object(members)
                }
                if let anchor = frame.anchor { anchors[anchor] = (value, nodes - frame.startNodes + 1) }
                try add(value, text: nil, plain: false, at: mark)
            default:
                continue
            }
        }
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

    /// Puts a finished value into the open container, or makes it the result.
    private mutating func add(_ value: JSONValue, text: String?, plain: Bool, at mark: Mark) throws(YAMLError)
    {
        guard var frame = stack.popLast() else {
            result = value
            return
        }
        switch frame.kind {
        case .sequence(var items):
            items.append(value)
            frame.kind = .sequence(items)
        case .mapping(var members, let key, var merges):
            if let key {
                if key.text == "<<", key.plain, Self.isMergeable(value) {
                    merges.append(value)
                } else {
                    members[key.text] = value
                }
                frame.kind = .mapping(members, key: nil, merges: merges)
            } else {
                guard let keyText = text ?? Self.keyText(value) else {
                    throw YAMLError(
                        line: mark.line, column: mark.column,
                        reason: "a mapping key must be a scalar, not \(value.typeName)")
                }
                if members[keyText] != nil {
                    throw YAMLError(
                        line: mark.line, column: mark.column, reason: "duplicate key '\(keyText)'")
                }
                frame.kind = .mapping(members, key: (keyText, mark, plain), merges: merges)
            }
        }
        stack.append(frame)
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

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, _ length: Int) -> String {
        guard let pointer else { return "" }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
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
