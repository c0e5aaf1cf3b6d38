import Foundation

/// Where a JSON text breaks the grammar of RFC 8259, and why.
package struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line of the offending character, from 1.
    package var line: Int
    /// Its column on that line, from 1, counted in Unicode scalars.
    package var column: Int
    /// Its byte offset from the start of the text.
    package var offset: Int
    /// What is wrong there, such as "a trailing comma before }".
    package var reason: String

    /// Creates an error at a byte offset of `data`, computing its line and column.
    /// - Parameters:
    ///   - offset: the offending byte's offset.
    ///   - data: the whole text.
    ///   - reason: what is wrong there.
    package init(offset: Int, in data: Data, reason: String) {
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Continuation bytes of a UTF-8 sequence do not start a new character.
                column += 1
            }
        }
        self.line = line
        self.column = column
        self.offset = offset
        self.reason = reason
    }

    /// "malformed JSON at line L, column C: reason".
    package var description: String { "malformed JSON at line \(line), column \(column): \(reason)" }
}

/// A strict check of JSON text against RFC 8259, with the position of the first fault.
///
/// Foundation's parsers accept more than JSON on some platforms (trailing commas, say), and
/// report a fault as a byte offset or not at all. A file that another tool will also read must
/// be JSON to the letter, so this refuses what JSON5 and friends allow: trailing commas,
/// comments, single-quoted strings, unquoted keys, `NaN` and `Infinity`, leading zeros and `+`
/// signs, hexadecimal numbers, control characters in strings, invalid escapes, lone
/// surrogates, invalid UTF-8 and a byte order mark. It builds no value.
package enum JSONSyntax {
    /// The deepest nesting of arrays and objects accepted.
    package static let maxDepth = 512

    /// Checks that `data` is exactly one JSON value, with only whitespace around it.
    /// - Throws: `JSONSyntaxError` with the line, column and reason of the first fault.
    package static func check(_ data: Data) throws(JSONSyntaxError) {
        let fault = data.withUnsafeBytes { bytes -> (offset: Int, reason: String)? in
            var scanner = Scanner(bytes: bytes)
            return scanner.run()
        }
        if let fault { throw JSONSyntaxError(offset: fault.offset, in: data, reason: fault.reason) }
    }

    /// The first fault of `data` as JSON, or nil when it is well-formed.
    package static func firstError(in data: Data) -> JSONSyntaxError? {
        do {
            try check(data)
            return nil
        } catch {
            return error
        }
    }
}

/// One pass over the bytes with a stack of open containers; no recursion, so nesting costs no
/// call stack.
private struct Scanner {
    typealias Fault = (offset: Int, reason: String)

    private enum Container { case object, array }

    /// What the next token may be.
    private enum Expectation {
        /// A value; `afterComma` holds the offset of the comma before it in an array.
        case value(first: Bool, afterComma: Int?)
        /// An object's key; `afterComma` as for a value.
        case key(first: Bool, afterComma: Int?)
        /// A comma, the end of the open container, or the end of the text.
        case next
    }

    let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var stack: [Container] = []

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    private static func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }

    private var atEnd: Bool { index >= bytes.count }

    mutating func run() -> Fault? {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            return (0, "a byte order mark (U+FEFF) before the value; save the file as UTF-8 without one")
        }
        var expectation = Expectation.value(first: false, afterComma: nil)
        while true {
            skipWhitespace()
            switch expectation {
            case .next:
                guard let top = stack.last else {
                    if atEnd { return nil }
                    return (index, "\(describe(index)) after the JSON value; a JSON text holds one value")
                }
                let close = top == .object ? Self.ascii("}") : Self.ascii("]")
                let expected = top == .object ? ", or }" : ", or ]"
                guard !atEnd else {
                    return (
                        index,
                        "the text ends inside an \(top == .object ? "object" : "array"); expected \(expected)"
                    )
                }
                if bytes[index] == Self.ascii(",") {
                    let comma = index
                    index += 1
                    expectation =
                        top == .object
                        ? .key(first: false, afterComma: comma) : .value(first: false, afterComma: comma)
                } else if bytes[index] == close {
                    index += 1
                    stack.removeLast()
                } else {
                    return (index, "\(describe(index)); expected \(expected)")
                }
            case .key(let first, let comma):
                guard !atEnd else { return (index, "the text ends inside an object; expected a key") }
                let byte = bytes[index]
                if byte == Self.ascii("}") {
                    if let comma { return (comma, "a trailing comma before }; JSON allows none") }
                    index += 1
                    stack.removeLast()
                    expectation = .next
                    continue
                }
                if byte != Self.ascii("\"") {
                    if Self.isWordStart(byte) {
                        return (index, "an unquoted key; a key is a double-quoted string")
                    }
                    return (
                        index,
                        "\(describe(index)); expected a key (a double-quoted string)" + (first ? " or }" : "")
                    )
                }
                if let fault = scanString() { return fault }
                skipWhitespace()
                guard !atEnd, bytes[index] == Self.ascii(":") else {
                    return (
                        index,
                        atEnd
                            ? "the text ends after a key; expected :"
                            : "\(describe(index)); expected : after the key"
                    )
                }
                index += 1
                expectation = .value(first: false, afterComma: nil)
            case .value(let first, let comma):
                guard !atEnd else {
                    return (
                        index,
                        stack.isEmpty
                            ? "no JSON value in the text" : "the text ends where a value was expected"
                    )
                }
                if bytes[index] == Self.ascii("]"), stack.last == .array, first || comma != nil {
                    if let comma { return (comma, "a trailing comma before ]; JSON allows none") }
                    index += 1
                    stack.removeLast()
                    expectation = .next
                    continue
                }
                switch bytes[index] {
                case Self.ascii("{"), Self.ascii("["):
                    guard stack.count < JSONSyntax.maxDepth else {
                        return (index, "arrays and objects nested deeper than \(JSONSyntax.maxDepth) levels")
                    }
                    let isObject = bytes[index] == Self.ascii("{")
                    stack.append(isObject ? .object : .array)
                    index += 1
                    expectation =
                        isObject ? .key(first: true, afterComma: nil) : .value(first: true, afterComma: nil)
                    continue
                case Self.ascii("\""):
                    if let fault = scanString() { return fault }
                case Self.ascii("-"), Self.ascii("0")...Self.ascii("9"):
                    if let fault = scanNumber() { return fault }
                case Self.ascii("t"), Self.ascii("f"), Self.ascii("n"):
                    if let fault = scanLiteral() { return fault }
                default:
                    return (index, "\(describe(index)); expected a value")
                }
                expectation = .next
            }
        }
    }

    private mutating func skipWhitespace() {
        while !atEnd {
            switch bytes[index] {
            case Self.ascii(" "), Self.ascii("\t"), Self.ascii("\n"), Self.ascii("\r"): index += 1
            default: return
            }
        }
    }

    private static func isWordStart(_ byte: UInt8) -> Bool {
        (Self.ascii("a")...Self.ascii("z")).contains(byte | 0x20) || byte == Self.ascii("_")
            || byte == Self.ascii("$")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (Self.ascii("0")...Self.ascii("9")).contains(byte) }

    /// The word (letters, digits, `_`, `$`) starting at `start`.
    private func word(at start: Int) -> String {
        var end = start
        while end < bytes.count, Self.isWordStart(bytes[end]) || Self.isDigit(bytes[end]), end - start < 32 {
            end += 1
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// What is at `offset`, naming the JSON5-isms people write: "a comment; JSON has none".
    private func describe(_ offset: Int) -> String {
        let byte = bytes[offset]
        let next = offset + 1 < bytes.count ? bytes[offset + 1] : 0
        switch byte {
        case Self.ascii("/") where next == Self.ascii("/") || next == Self.ascii("*"):
            return "a comment; JSON has none"
        case Self.ascii("'"):
            return "a single-quoted string; JSON strings use double quotes"
        case Self.ascii("+"):
            return "a number with a + sign; JSON numbers have none"
        case Self.ascii("."):
            return "a number without a digit before the decimal point"
        case _ where Self.isWordStart(byte):
            let word = word(at: offset)
            if ["NaN", "Infinity"].contains(word) { return "\(word), which is not a JSON number" }
            if ["True", "False", "None", "Null", "TRUE", "FALSE", "NULL", "undefined"].contains(word) {
                return "\(word); JSON's literals are true, false and null, in lower case"
            }
            return "unexpected \(word.debugDescription) (strings are double-quoted)"
        case 0x20..<0x7F:
            return "unexpected \(String(UnicodeScalar(byte)).debugDescription)"
        case 0x00..<0x20, 0x7F:
            return "unexpected control character U+\(String(format: "%04X", byte))"
        default:
            return "unexpected non-ASCII character"
        }
    }

    /// `true`, `false` or `null`, spelled exactly.
    private mutating func scanLiteral() -> Fault? {
        for literal in ["true", "false", "null"] {
            let utf8 = Array(literal.utf8)
            if bytes.count - index >= utf8.count, bytes[index..<index + utf8.count].elementsEqual(utf8) {
                let end = index + utf8.count
                // `nullable` is a word, not null followed by junk.
                if end < bytes.count, Self.isWordStart(bytes[end]) || Self.isDigit(bytes[end]) { break }
                index = end
                return nil
            }
        }
        return (index, describe(index))
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func scanNumber() -> Fault? {
        let start = index
        if bytes[index] == Self.ascii("-") {
            index += 1
            if !atEnd, Self.isWordStart(bytes[index]) {
                let word = word(at: index)
                if word == "Infinity" { return (start, "-Infinity, which is not a JSON number") }
            }
            guard !atEnd, Self.isDigit(bytes[index]) else {
                return (index, "a number needs a digit after -")
            }
        }
        if bytes[index] == Self.ascii("0") {
            index += 1
            if !atEnd, Self.isDigit(bytes[index]) {
                return (start, "a number with a leading zero; JSON numbers have none")
            }
            if !atEnd, bytes[index] | 0x20 == Self.ascii("x") {
                return (start, "a hexadecimal number; JSON numbers are decimal")
            }
        } else {
            while !atEnd, Self.isDigit(bytes[index]) { index += 1 }
        }
        if !atEnd, bytes[index] == Self.ascii(".") {
            index += 1
            guard !atEnd, Self.isDigit(bytes[index]) else {
                return (index, "a number needs a digit after the decimal point")
            }
            while !atEnd, Self.isDigit(bytes[index]) { index += 1 }
        }
        if !atEnd, bytes[index] | 0x20 == Self.ascii("e") {
            index += 1
            if !atEnd, bytes[index] == Self.ascii("+") || bytes[index] == Self.ascii("-") { index += 1 }
            guard !atEnd, Self.isDigit(bytes[index]) else {
                return (index, "an exponent needs a digit")
            }
            while !atEnd, Self.isDigit(bytes[index]) { index += 1 }
        }
        return nil
    }

    /// A double-quoted string: escapes, control characters, surrogates and UTF-8 checked.
    private mutating func scanString() -> Fault? {
        let start = index
        index += 1
        while true {
            guard !atEnd else { return (start, "a string that is never closed") }
            let byte = bytes[index]
            switch byte {
            case Self.ascii("\""):
                index += 1
                return nil
            case Self.ascii("\\"):
                if let fault = scanEscape() { return fault }
            case 0x00..<0x20:
                return (
                    index,
                    "a control character (U+\(String(format: "%04X", byte))) in a string; escape it, as \\n or \\u\(String(format: "%04X", byte))"
                )
            case 0x80...:
                if let fault = scanUTF8() { return fault }
            default:
                index += 1
            }
        }
    }

    /// `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, or `\uXXXX` (a surrogate only in a pair).
    private mutating func scanEscape() -> Fault? {
        let start = index
        guard index + 1 < bytes.count else { return (start, "a string that is never closed") }
        let letter = bytes[index + 1]
        switch letter {
        case Self.ascii("\""), Self.ascii("\\"), Self.ascii("/"), Self.ascii("b"), Self.ascii("f"),
            Self.ascii("n"),
            Self.ascii("r"), Self.ascii("t"):
            index += 2
            return nil
        default:
            break
        }
        guard letter == Self.ascii("u") else {
            return (
                start,
                "an invalid escape \\\(String(UnicodeScalar(letter))); JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
            )
        }
        guard let unit = hexUnit(at: index + 2) else {
            return (start, "an invalid escape; \\u needs four hexadecimal digits")
        }
        index += 6
        switch unit {
        case 0xD800...0xDBFF:
            guard index + 1 < bytes.count, bytes[index] == Self.ascii("\\"),
                bytes[index + 1] == Self.ascii("u"),
                let low = hexUnit(at: index + 2), (0xDC00...0xDFFF).contains(low)
            else {
                return (
                    start, "a lone surrogate \\u\(String(format: "%04X", unit)), which is not a character"
                )
            }
            index += 6
        case 0xDC00...0xDFFF:
            return (start, "a lone surrogate \\u\(String(format: "%04X", unit)), which is not a character")
        default:
            break
        }
        return nil
    }

    private func hexUnit(at offset: Int) -> UInt16? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt16 = 0
        for byte in bytes[offset..<offset + 4] {
            let digit: UInt8
            switch byte {
            case Self.ascii("0")...Self.ascii("9"): digit = byte - Self.ascii("0")
            case Self.ascii("a")...Self.ascii("f"): digit = byte - Self.ascii("a") + 10
            case Self.ascii("A")...Self.ascii("F"): digit = byte - Self.ascii("A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// One multi-byte UTF-8 sequence, by the table of well-formed sequences (Unicode §3.9).
    private mutating func scanUTF8() -> Fault? {
        let lead = bytes[index]
        let (length, secondRange): (Int, ClosedRange<UInt8>) =
            switch lead {
            case 0xC2...0xDF: (2, 0x80...0xBF)
            case 0xE0: (3, 0xA0...0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
            case 0xED: (3, 0x80...0x9F)
            case 0xF0: (4, 0x90...0xBF)
            case 0xF1...0xF3: (4, 0x80...0xBF)
            case 0xF4: (4, 0x80...0x8F)
            default: (0, 0x80...0xBF)
            }
        guard length > 0, index + length <= bytes.count, secondRange.contains(bytes[index + 1]),
            bytes[(index + 2)..<(index + length)].allSatisfy({ (0x80...0xBF).contains($0) })
        else { return (index, "bytes that are not UTF-8 in a string") }
        index += length
        return nil
    }
}

extension JSONValue {
    /// Parses text that must be JSON to the letter (see ``JSONSyntax``), such as a file that other
    /// tools read too.
    /// - Throws: `JSONSyntaxError` with the line and column of the first fault; `DecodingError` for
    ///   a number no Swift type holds.
    package static func parseStrictly(_ data: Data) throws -> JSONValue {
        try JSONSyntax.check(data)
        return try parse(data)
    }
}
