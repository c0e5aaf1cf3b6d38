import Foundation

/// A scalar that cannot be read as asked; the caller adds the type and coding path.
enum ScalarFailure: Error {
    case null
    case mismatch(JSONKind)
    case syntax
}

/// Reads a finished document's tape and bytes through plain pointers (no reference counting),
/// turning the text of string and number entries into values with Foundation's rules.
struct TapeView {
    let tape: UnsafeMutablePointer<TapeEntry>
    let base: UnsafePointer<UInt8>

    @inline(__always)
    func kind(_ index: Int) -> JSONKind { tape[index].kind }

    /// The text of a string or number entry.
    @inline(__always)
    func text(of index: Int) -> UnsafeBufferPointer<UInt8> {
        let entry = tape[index]
        return UnsafeBufferPointer(start: base + Int(entry.start), count: Int(entry.length))
    }

    @inline(__always)
    func bool(_ index: Int) throws -> Bool {
        switch tape[index].kind {
        case .true: return true
        case .false: return false
        case let other: throw ScalarFailure.mismatch(other)
        }
    }

    @inline(__always)
    func stringValue(_ index: Int) throws -> String {
        let found = tape[index].kind
        guard found == .string else { throw found == .null ? ScalarFailure.null : .mismatch(found) }
        do {
            return try string(at: index)
        } catch {
            throw ScalarFailure.syntax
        }
    }

    @inline(__always)
    func integer<T: FixedWidthInteger>(_ index: Int, _ type: T.Type) throws -> T {
        let entry = tape[index]
        guard entry.kind == .number else {
            throw entry.kind == .null ? ScalarFailure.null : .mismatch(entry.kind)
        }
        if let value = Self.plainInteger(text(of: index)), let exact = T(exactly: value) { return exact }
        let start = Int(entry.start)
        do {
            return try JSONNumberText(text(of: index), offset: start).integer(T.self, offset: start)
        } catch {
            throw ScalarFailure.syntax
        }
    }

    /// The value of `text` when it is `0` or `-?[1-9][0-9]{0,17}` (so it fits an `Int64`), read in
    /// one pass; `nil` for any other text, which `JSONNumberText` then checks and converts. The
    /// common case skips the separate grammar pass; the result is the one that path gives.
    @inline(__always)
    static func plainInteger(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = text.count > 1 && text[0] == UInt8(ascii: "-")
        var position = negative ? 1 : 0
        let digits = text.count - position
        guard digits >= 1, digits <= 18 else { return nil }
        if text[position] == UInt8(ascii: "0") { return digits == 1 ? 0 : nil }
        var value: Int64 = 0
        while position < text.count {
            let digit = text[position] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int64(digit)
            position += 1
        }
        return negative ? -value : value
    }

    @inline(__always)
    func float<T: BinaryFloatingPoint & LosslessStringConvertible>(_ index: Int, _ type: T.Type)
        throws -> T
    {
        let entry = tape[index]
        guard entry.kind == .number else {
            throw entry.kind == .null ? ScalarFailure.null : .mismatch(entry.kind)
        }
        let start = Int(entry.start)
        do {
            return try JSONNumberText(text(of: index), offset: start).floatingPoint(T.self, offset: start)
        } catch {
            throw ScalarFailure.syntax
        }
    }

    /// The string at `index` (a string entry).
    /// - Throws: `JSONSyntaxError` for invalid UTF-8, an unescaped control character or a bad escape.
    @inline(__always)
    func string(at index: Int) throws(JSONSyntaxError) -> String {
        let entry = tape[index]
        let text = self.text(of: index)
        if entry.flags & (TapeEntry.Flags.escaped | TapeEntry.Flags.nonASCII) == 0 {
            return Self.asciiString(text)
        }
        if entry.flags & TapeEntry.Flags.escaped == 0 {
            guard let string = String(validating: text, as: UTF8.self) else {
                throw JSONSyntaxError(offset: Int(entry.start))
            }
            return string
        }
        return try unescape(text, offset: Int(entry.start))
    }

    /// `text`, known to be ASCII, as a `String`. Up to 15 bytes (a small string on 64-bit
    /// platforms) `String(unsafeUninitializedCapacity:)` builds the string from the bytes as
    /// written and, finding them ASCII, skips the UTF-8 validation that `String(decoding:as:)`
    /// runs first. Ids, names and the like are mostly that short; longer text is validated as before.
    @inline(__always)
    static func asciiString(_ text: UnsafeBufferPointer<UInt8>) -> String {
        guard text.count <= 15, let source = text.baseAddress else {
            return String(decoding: text, as: UTF8.self)
        }
        if text.isEmpty { return "" }
        return String(unsafeUninitializedCapacity: text.count) { buffer in
            buffer.baseAddress!.update(from: source, count: text.count)
            return text.count
        }
    }

    private func unescape(_ text: UnsafeBufferPointer<UInt8>, offset: Int) throws(JSONSyntaxError) -> String {
        var output = ""
        var chunkStart = 0
        var index = 0
        func appendChunk(upTo end: Int) throws(JSONSyntaxError) {
            guard end > chunkStart else { return }
            guard
                let chunk = String(
                    validating: UnsafeBufferPointer(rebasing: text[chunkStart..<end]), as: UTF8.self)
            else { throw JSONSyntaxError(offset: offset + chunkStart) }
            output += chunk
        }
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "\\") {
                try appendChunk(upTo: index)
                index += 1
                guard index < text.count else { throw JSONSyntaxError(offset: offset + index) }
                switch text[index] {
                case UInt8(ascii: "\""): output.append("\"")
                case UInt8(ascii: "\\"): output.append("\\")
                case UInt8(ascii: "/"): output.append("/")
                case UInt8(ascii: "b"): output.append("\u{08}")
                case UInt8(ascii: "f"): output.append("\u{0C}")
                case UInt8(ascii: "n"): output.append("\n")
                case UInt8(ascii: "r"): output.append("\r")
                case UInt8(ascii: "t"): output.append("\t")
                case UInt8(ascii: "u"):
                    let lead = try hexQuad(text, at: index + 1, offset: offset)
                    index += 4
                    if UTF16.isLeadSurrogate(lead) {
                        guard index + 2 < text.count, text[index + 1] == UInt8(ascii: "\\"),
                            text[index + 2] == UInt8(ascii: "u")
                        else { throw JSONSyntaxError(offset: offset + index) }
                        let trail = try hexQuad(text, at: index + 3, offset: offset)
                        guard UTF16.isTrailSurrogate(trail) else {
                            throw JSONSyntaxError(offset: offset + index)
                        }
                        output.unicodeScalars.append(UTF16.decode(UTF16.EncodedScalar([lead, trail])))
                        index += 6
                    } else {
                        guard let scalar = Unicode.Scalar(lead) else {
                            throw JSONSyntaxError(offset: offset + index)
                        }
                        output.unicodeScalars.append(scalar)
                    }
                default:
                    throw JSONSyntaxError(offset: offset + index)
                }
                index += 1
                chunkStart = index
            } else if byte < 0x20 {
                throw JSONSyntaxError(offset: offset + index)
            } else {
                index += 1
            }
        }
        try appendChunk(upTo: text.count)
        return output
    }

    private func hexQuad(_ text: UnsafeBufferPointer<UInt8>, at start: Int, offset: Int)
        throws(JSONSyntaxError)
        -> UInt16
    {
        guard start + 4 <= text.count else { throw JSONSyntaxError(offset: offset + start) }
        var value: UInt16 = 0
        for position in start..<start + 4 {
            let byte = text[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONSyntaxError(offset: offset + position)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Whether the string at `index` equals `key` byte for byte (both plain ASCII).
    @inline(__always)
    func keyEquals(_ index: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = tape[index]
        let count = key.count
        guard Int(entry.length) == count else { return false }
        guard let keyBase = key.baseAddress else { return true }
        // Keys are short: compared here rather than through a call to `memcmp`, whose set-up for
        // a few bytes cost more than the comparison. Words are read whole, the last one
        // overlapping the one before, so that no byte is compared on its own but the last of an
        // odd length.
        let text = UnsafeRawPointer(base + Int(entry.start))
        let other = UnsafeRawPointer(keyBase)
        @inline(__always) func same<Word: FixedWidthInteger>(_: Word.Type, at offset: Int) -> Bool {
            text.loadUnaligned(fromByteOffset: offset, as: Word.self)
                == other.loadUnaligned(fromByteOffset: offset, as: Word.self)
        }
        if count >= 8 {
            var offset = 0
            while count &- offset > 8 {
                if !same(UInt64.self, at: offset) { return false }
                offset &+= 8
            }
            return same(UInt64.self, at: count &- 8)
        }
        if count >= 4 { return same(UInt32.self, at: 0) && same(UInt32.self, at: count &- 4) }
        if count >= 2 { return same(UInt16.self, at: 0) && same(UInt16.self, at: count &- 2) }
        return count == 0 || same(UInt8.self, at: 0)
    }
}

/// A JSON number's text, checked against JSON's grammar when it is decoded.
struct JSONNumberText {
    let text: UnsafeBufferPointer<UInt8>
    /// Set when the text is `-?digits` (no fraction or exponent).
    private(set) var isInteger = true
    private(set) var isNegative = false

    /// Checks the grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    init(_ text: UnsafeBufferPointer<UInt8>, offset: Int) throws(JSONSyntaxError) {
        self.text = text
        var index = 0
        let count = text.count
        @inline(__always) func isDigit(_ position: Int) -> Bool {
            position < count && text[position] &- UInt8(ascii: "0") < 10
        }
        if index < count, text[index] == UInt8(ascii: "-") {
            isNegative = true
            index += 1
        }
        guard isDigit(index) else { throw JSONSyntaxError(offset: offset + index) }
        if text[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { throw JSONSyntaxError(offset: offset + index) }
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < count, text[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard isDigit(index) else { throw JSONSyntaxError(offset: offset + index) }
            while isDigit(index) { index += 1 }
        }
        if index < count, text[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(index) else { throw JSONSyntaxError(offset: offset + index) }
            while isDigit(index) { index += 1 }
        }
        guard index == count else { throw JSONSyntaxError(offset: offset + index) }
    }

    /// Whether a number that parsed as zero is written as zero, by Foundation's test: bytes in
    /// blocks of four from the start, then the last one to three bytes from the end; a digit 1-9
    /// means no, an exponent sign means yes. ("0e5" is not a true zero by this test.)
    private var isTrueZero: Bool {
        @inline(__always) func check(_ byte: UInt8) -> Bool? {
            if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return false }
            if byte | 0x20 == UInt8(ascii: "e") { return true }
            return nil
        }
        var index = 0
        while text.count - index >= 4 {
            for offset in 0..<4 {
                if let result = check(text[index + offset]) { return result }
            }
            index += 4
        }
        for offset in stride(from: text.count - index - 1, through: 0, by: -1) {
            if let result = check(text[index + offset]) { return result }
        }
        return true
    }

    /// The magnitude of an integer's digits, or `nil` when it does not fit in a `UInt64`.
    private var integerMagnitude: UInt64? {
        var value: UInt64 = 0
        for byte in text[(isNegative ? 1 : 0)...] {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        return value
    }

    /// The number as an integer of type `T`, as Foundation converts it: exact integers directly,
    /// otherwise through `Double` and then `Decimal`, failing when not exactly representable.
    func integer<T: FixedWidthInteger>(_: T.Type, offset: Int) throws -> T {
        if isInteger, let magnitude = integerMagnitude {
            if !isNegative {
                if magnitude <= UInt64(T.max) { return T(truncatingIfNeeded: magnitude) }
            } else if magnitude == 0 {
                return 0
            } else if T.isSigned, magnitude <= UInt64(T.max) + 1 {
                // -magnitude fits: go through Int64's range with care for the minimum.
                if magnitude == UInt64(T.max) + 1 { return T.min }
                return 0 - T(magnitude)
            }
        }
        let string = String(decoding: text, as: UTF8.self)
        if let double = Double(string) {
            guard let value = T(exactly: double) else { throw JSONSyntaxError(offset: offset) }
            if double.magnitude < 9_007_199_254_740_992 { return value }
        }
        guard let value = decimalInteger(T.self) else { throw JSONSyntaxError(offset: offset) }
        return value
    }

    /// Foundation's last resort for integers: the number as a `Decimal` (mantissa and exponent),
    /// the mantissa in a `UInt64`, then scaled by the exponent, dropping any fraction.
    private func decimalInteger<T: FixedWidthInteger>(_: T.Type) -> T? {
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var index = isNegative ? 1 : 0
        var inFraction = false
        var pendingZeros = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte | 0x20 == UInt8(ascii: "e") {
                break
            } else {
                let digit = UInt64(byte &- UInt8(ascii: "0"))
                if digit == 0 && digits > 0 {
                    // Held back: zeros only count if a non-zero digit follows.
                    pendingZeros += 1
                } else if digit != 0 {
                    digits += pendingZeros + 1
                    guard digits <= 38 else { return nil }
                    for _ in 0..<pendingZeros {
                        let (times, overflow) = mantissa.multipliedReportingOverflow(by: 10)
                        if overflow { return nil }
                        mantissa = times
                    }
                    pendingZeros = 0
                    let (times, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = times.addingReportingOverflow(digit)
                    if overflow1 || overflow2 { return nil }
                    mantissa = sum
                }
                if inFraction { exponent -= 1 }
            }
            index += 1
        }
        if index < text.count {
            guard let written = Int(String(decoding: text[(index + 1)...], as: UTF8.self)) else { return nil }
            exponent += written
        }
        // Decimal keeps its mantissa compact: trailing zeros count in the exponent instead.
        exponent += pendingZeros
        if exponent < 0 {
            for _ in 0 ..< -exponent where mantissa != 0 { mantissa /= 10 }
        } else {
            for _ in 0..<exponent {
                let (times, overflow) = mantissa.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                mantissa = times
            }
        }
        if isNegative && !T.isSigned { return nil }
        guard let sized = T(exactly: mantissa) else { return nil }
        return isNegative ? 0 - sized : sized
    }

    /// The number as a `Double` or `Float`, rounded by the standard library's parser; infinite
    /// results and non-zero inputs that round to zero fail, as in Foundation.
    func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_: T.Type, offset: Int) throws -> T
    {
        // Integers of up to 7 digits are exact in a Float, of up to 15 in a Double.
        let exactDigits = T.significandBitCount > 30 ? 15 : 7
        if isInteger, text.count - (isNegative ? 1 : 0) <= exactDigits, let magnitude = integerMagnitude {
            let value = T(magnitude)
            return isNegative ? -value : value
        }
        guard let value = T(String(decoding: text, as: UTF8.self)), value.isFinite else {
            throw JSONSyntaxError(offset: offset)
        }
        if value == 0 && !isTrueZero { throw JSONSyntaxError(offset: offset) }
        return value
    }
}
