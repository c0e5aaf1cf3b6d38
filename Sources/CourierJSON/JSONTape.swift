/// One JSON value on the tape: its kind, where its text is, and where the next sibling starts.
///
/// The tape is the parsed document laid out in order: an object's entry is followed by its
/// members as alternating key and value entries, an array's by its elements. `next` is the
/// index just past the value (past a container's whole subtree), so skipping a value is one
/// load. Strings and numbers are not converted here: that happens when a value is decoded, as
/// in Foundation, so that a value nobody asks for costs (and fails) nothing.
struct TapeEntry {
    /// The value's kind.
    var kind: JSONKind
    /// `Flags` bits: for strings, whether the text needs the slow path; for objects, what the
    /// keyed container may assume about the keys.
    var flags: UInt8
    /// Strings: the first byte after the opening quote. Numbers: the first byte.
    var start: UInt32
    /// Strings and numbers: the byte length of the text. Arrays: the element count. Objects:
    /// the member count.
    var length: UInt32
    /// The tape index just past this value.
    var next: UInt32
    /// Objects: the keyed container's lookup cursor (a member number).
    var cursor: UInt32

    enum Flags {
        /// String: holds an escape or a control character (decode with the slow path).
        static var escaped: UInt8 { 1 }
        /// String: holds a byte outside ASCII.
        static var nonASCII: UInt8 { 2 }
        /// String used as a key: holds `_`.
        static var underscore: UInt8 { 4 }
        /// Object: some key is escaped or not ASCII (keys are compared as `String`s).
        static var complexKeys: UInt8 { 8 }
        /// Object: two keys might be equal (lookups always start at the first member).
        static var maybeDuplicates: UInt8 { 16 }
        /// Object: some key holds `_` (snake_case conversion may change it).
        static var underscoreKeys: UInt8 { 32 }
    }
}

/// The kinds of JSON value.
enum JSONKind {
    case null, `true`, `false`, number, string, array, object

    /// How Foundation's decoder names the kind in its type-mismatch messages.
    var description: String {
        switch self {
        case .string: "a string"
        case .number: "number"
        case .true, .false: "bool"
        case .null: "null"
        case .object: "a dictionary"
        case .array: "an array"
        }
    }
}

/// Why the bytes are not JSON; reported as Foundation does, as `dataCorrupted` at the root.
struct JSONSyntaxError: Error {
    /// The byte offset where the problem was found.
    var offset: Int

    var decodingError: DecodingError {
        .dataCorrupted(
            DecodingError.Context(codingPath: [], debugDescription: "The given data was not valid JSON."))
    }
}

/// The document's bytes and its tape, owned together so that containers and decoders that
/// outlive the call (a stored `superDecoder`) never see freed memory.
final class JSONDocument {
    /// The UTF-8 bytes, followed by one NUL byte that is not part of the input.
    let bytes: UnsafeMutableBufferPointer<UInt8>
    /// The input's length (without the NUL).
    let count: Int
    /// The tape; index 0 is a `null` entry that stands for a missing value.
    @exclusivity(unchecked) private(set) var tape: UnsafeMutablePointer<TapeEntry>
    @exclusivity(unchecked) private(set) var tapeCount: Int
    @exclusivity(unchecked) private var tapeCapacity: Int
    /// How many objects the document holds.
    @exclusivity(unchecked) private(set) var objectCount = 0

    /// The deepest nesting of arrays and objects accepted, as in Foundation.
    static let maximumDepth = 512

    /// A document of one `null`, scanned without a scanner.
    private init() {
        count = 4
        bytes = .allocate(capacity: 5)
        _ = bytes.initialize(from: Array("null".utf8) + [0])
        tapeCapacity = 2
        tape = .allocate(capacity: 2)
        tape[0] = TapeEntry(kind: .null, flags: 0, start: 0, length: 0, next: 1, cursor: 0)
        tape[1] = TapeEntry(kind: .null, flags: 0, start: 0, length: 4, next: 2, cursor: 0)
        tapeCount = 2
    }

    /// A document of one `null`, for a decoder that never decodes (`TapeDecoder.detached`).
    static func null() -> JSONDocument { JSONDocument() }

    /// Copies `input` and scans it.
    /// - Throws: `JSONSyntaxError` when it is not JSON.
    init(copying input: UnsafeRawBufferPointer) throws {
        count = input.count
        bytes = .allocate(capacity: input.count + 1)
        if let base = input.baseAddress, input.count > 0 {
            bytes.baseAddress!.update(from: base.assumingMemoryBound(to: UInt8.self), count: input.count)
        }
        bytes[input.count] = 0
        // Dense JSON has about one entry for every 6 bytes; grown if needed.
        tapeCapacity = input.count / 6 + 16
        tape = .allocate(capacity: tapeCapacity)
        tape[0] = TapeEntry(kind: .null, flags: 0, start: 0, length: 0, next: 1, cursor: 0)
        tapeCount = 1
        guard input.count < Int(UInt32.max) else { throw JSONSyntaxError(offset: 0) }
        var scanner = JSONScanner(
            base: UnsafePointer(bytes.baseAddress!), end: count, tape: tape, count: 1, capacity: tapeCapacity)
        // The scanner may have moved the tape to grow it; take it back whether or not it threw.
        defer {
            tape = scanner.tape
            tapeCount = scanner.count
            tapeCapacity = scanner.capacity
            objectCount = scanner.objects
        }
        try scanner.scanDocument()
    }

    deinit {
        bytes.deallocate()
        tape.deallocate()
    }

    /// Pointers into the finished document, for reading without reference counting. Valid
    /// while the document is alive.
    var view: TapeView { TapeView(tape: tape, base: UnsafePointer(bytes.baseAddress!)) }
}

/// Scans the bytes once into the tape, checking only what Foundation's scanner checks up front:
/// the structure, literals, the shape of escapes and the nesting depth. Foundation accepts a
/// trailing comma in arrays and objects, and so does this.
///
/// Positions, counts and depths are bounded by the input's length (under 4 GiB), so their
/// arithmetic wraps (`&+`) rather than checking for an overflow that cannot happen.
struct JSONScanner {
    let base: UnsafePointer<UInt8>
    let end: Int
    var position = 0
    var depth = 0
    /// The tape being written (`TapeEntry` is trivial: entries are stored, never deinitialized).
    var tape: UnsafeMutablePointer<TapeEntry>
    var count: Int
    var capacity: Int
    var objects = 0

    init(
        base: UnsafePointer<UInt8>, end: Int, tape: UnsafeMutablePointer<TapeEntry>, count: Int, capacity: Int
    ) {
        self.base = base
        self.end = end
        self.tape = tape
        self.count = count
        self.capacity = capacity
    }

    /// `value` (a byte offset, a length or a tape index) as a tape field. `JSONDocument` takes only
    /// inputs shorter than `UInt32.max` bytes, and the tape has fewer entries than the input has
    /// bytes plus two, so every such value fits: it is converted without a check.
    @inline(__always)
    static func offset(_ value: Int) -> UInt32 { UInt32(truncatingIfNeeded: value) }

    /// Appends an entry and returns its index.
    @inline(__always)
    private mutating func append(_ entry: TapeEntry) -> Int {
        if count == capacity { grow() }
        tape[count] = entry
        count &+= 1
        return count - 1
    }

    private mutating func grow() {
        let newTape = UnsafeMutablePointer<TapeEntry>.allocate(capacity: capacity * 2)
        newTape.update(from: tape, count: count)
        tape.deallocate()
        tape = newTape
        capacity *= 2
    }

    mutating func scanDocument() throws {
        try scanValue()
        while position < end {
            guard isWhitespace(base[position]) else { throw JSONSyntaxError(offset: position) }
            position &+= 1
        }
    }

    @inline(__always)
    private func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Skips whitespace; returns the next byte, or throws at the end of the input.
    @inline(__always)
    private mutating func nextNonWhitespace() throws -> UInt8 {
        var position = self.position
        defer { self.position = position }
        while position < end {
            let byte = base[position]
            if byte > 0x20 || !isWhitespace(byte) { return byte }
            position &+= 1
        }
        throw JSONSyntaxError(offset: position)
    }

    private mutating func scanValue() throws {
        let byte = try nextNonWhitespace()
        switch byte {
        case UInt8(ascii: "\""):
            _ = try scanString(isKey: false)
        case UInt8(ascii: "{"):
            try scanObject()
        case UInt8(ascii: "["):
            try scanArray()
        case UInt8(ascii: "t"):
            try scanLiteral("true", kind: .true)
        case UInt8(ascii: "f"):
            try scanLiteral("false", kind: .false)
        case UInt8(ascii: "n"):
            try scanLiteral("null", kind: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            scanNumber()
        default:
            throw JSONSyntaxError(offset: position)
        }
    }

    private mutating func scanLiteral(_ literal: StaticString, kind: JSONKind) throws {
        let length = literal.utf8CodeUnitCount
        guard end - position >= length else { throw JSONSyntaxError(offset: position) }
        // The first byte was matched by the caller: the last four ("true", "alse", "null") are
        // compared as one word.
        let last = length &- 4
        let expected = UnsafeRawPointer(literal.utf8Start).loadUnaligned(
            fromByteOffset: last, as: UInt32.self)
        guard
            UnsafeRawPointer(base + position).loadUnaligned(fromByteOffset: last, as: UInt32.self) == expected
        else {
            throw JSONSyntaxError(offset: position)
        }
        let index = count
        _ = append(
            TapeEntry(
                kind: kind, flags: 0, start: Self.offset(position), length: Self.offset(length),
                next: Self.offset(index &+ 1),
                cursor: 0))
        position &+= length
    }

    /// Numbers are only delimited here (digits, `.`, `+`, `-`, `e`, `E`); their syntax is checked
    /// when one is decoded, as Foundation does.
    private mutating func scanNumber() {
        let start = position
        var position = start &+ 1
        while position < end {
            let byte = base[position]
            if byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            {
                position &+= 1
            } else {
                break
            }
        }
        self.position = position
        let index = count
        _ = append(
            TapeEntry(
                kind: .number, flags: 0, start: Self.offset(start), length: Self.offset(position &- start),
                next: Self.offset(index &+ 1), cursor: 0))
    }

    /// Scans a string starting at its opening quote; returns its flags.
    @inline(__always)
    private mutating func scanString(isKey: Bool) throws -> UInt8 {
        // The position is kept in a local: as `self.position` it is stored to memory at every step.
        var position = self.position &+ 1
        let start = position
        var flags: UInt8 = 0
        // The bytes read so far OR-ed together, and (in keys) the marks of their underscores:
        // whether the string holds a non-ASCII byte or `_` is read from them once, at its end,
        // rather than stopping the eight-byte loop at the first of either.
        var seen: UInt64 = 0
        var underscores: UInt64 = 0
        let high: UInt64 = 0x8080_8080_8080_8080
        while true {
            if end - position >= 8 {
                // Eight bytes at a time up to the first that needs a look: a quote, a backslash or
                // a control byte.
                let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                let found = Self.specialBytes(word)
                if found == 0 {
                    seen |= word
                    if isKey { underscores |= Self.zeroBytes(word ^ 0x5F5F_5F5F_5F5F_5F5F) }
                    position &+= 8
                    continue
                }
                let skipped = found.trailingZeroBitCount >> 3
                // The bytes before the one found (fewer than eight, so the shift is in range).
                let before: UInt64 = (1 << UInt64(truncatingIfNeeded: skipped << 3)) &- 1
                seen |= word & before
                if isKey { underscores |= Self.zeroBytes(word ^ 0x5F5F_5F5F_5F5F_5F5F) & before }
                position &+= skipped
            } else if position >= end {
                throw JSONSyntaxError(offset: position)
            }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                flags |= TapeEntry.Flags.escaped
                position &+= 1
                guard position < end else { throw JSONSyntaxError(offset: position) }
                if base[position] == UInt8(ascii: "u") {
                    // Only the shape is checked here: four bytes, none of them a quote.
                    guard end - position > 4 else { throw JSONSyntaxError(offset: position) }
                    for offset in 1...4 where base[position + offset] == UInt8(ascii: "\"") {
                        throw JSONSyntaxError(offset: position + offset)
                    }
                    position &+= 4
                }
            } else if byte < 0x20 {
                flags |= TapeEntry.Flags.escaped
            } else if isKey && byte == UInt8(ascii: "_") {
                underscores |= 0x80
            } else {
                seen |= UInt64(byte)
            }
            position &+= 1
        }
        if seen & high != 0 { flags |= TapeEntry.Flags.nonASCII }
        if isKey && underscores & high != 0 { flags |= TapeEntry.Flags.underscore }
        self.position = position &+ 1
        let index = count
        _ = append(
            TapeEntry(
                kind: .string, flags: flags, start: Self.offset(start),
                length: Self.offset(position &- start),
                next: Self.offset(index &+ 1), cursor: 0))
        return flags
    }

    /// A mask with the high bit set in (at least) the lowest byte of `word` that is a quote, a
    /// backslash or below 0x20; zero when there is none. Bytes above the lowest match may be
    /// marked falsely, so only the lowest counts.
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let high: UInt64 = 0x8080_8080_8080_8080
        var found = (word &- 0x2020_2020_2020_2020) & ~word & high
        found |= zeroBytes(word ^ 0x2222_2222_2222_2222)
        found |= zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
        return found
    }

    /// The high bit set in (at least) the lowest zero byte of `value`; bytes above a zero byte may
    /// be marked falsely. Zero when no byte is zero.
    @inline(__always)
    static func zeroBytes(_ value: UInt64) -> UInt64 {
        (value &- 0x0101_0101_0101_0101) & ~value & 0x8080_8080_8080_8080
    }

    private mutating func scanArray() throws {
        guard depth < JSONDocument.maximumDepth else { throw JSONSyntaxError(offset: position) }
        depth &+= 1
        defer { depth &-= 1 }
        let arrayStart = position
        position &+= 1
        let index = append(
            TapeEntry(kind: .array, flags: 0, start: Self.offset(arrayStart), length: 0, next: 0, cursor: 0))
        var members: UInt32 = 0
        if try nextNonWhitespace() == UInt8(ascii: "]") {
            position &+= 1
        } else {
            elements: while true {
                try scanValue()
                members &+= 1
                switch try nextNonWhitespace() {
                case UInt8(ascii: "]"):
                    position &+= 1
                    break elements
                case UInt8(ascii: ","):
                    position &+= 1
                    if try nextNonWhitespace() == UInt8(ascii: "]") {
                        position &+= 1
                        break elements
                    }
                default:
                    throw JSONSyntaxError(offset: position)
                }
            }
        }
        tape[index].length = members
        tape[index].next = Self.offset(self.count)
    }

    private mutating func scanObject() throws {
        guard depth < JSONDocument.maximumDepth else { throw JSONSyntaxError(offset: position) }
        depth &+= 1
        objects &+= 1
        defer { depth &-= 1 }
        let objectStart = position
        position &+= 1
        let index = append(
            TapeEntry(kind: .object, flags: 0, start: Self.offset(objectStart), length: 0, next: 0, cursor: 0)
        )
        var members: UInt32 = 0
        var flags: UInt8 = 0
        var seen: UInt64 = 0
        if try nextNonWhitespace() == UInt8(ascii: "}") {
            position &+= 1
        } else {
            memberLoop: while true {
                guard base[position] == UInt8(ascii: "\"") else { throw JSONSyntaxError(offset: position) }
                let keyStart = position + 1
                let keyFlags = try scanString(isKey: true)
                if keyFlags & (TapeEntry.Flags.escaped | TapeEntry.Flags.nonASCII) != 0 {
                    flags |= TapeEntry.Flags.complexKeys
                }
                if keyFlags & TapeEntry.Flags.underscore != 0 { flags |= TapeEntry.Flags.underscoreKeys }
                // A cheap filter for duplicate keys: length and the first and last bytes (for an
                // empty key, its two quotes).
                let keyLength = position &- 1 &- keyStart
                let hash = keyLength &* 7 &+ Int(base[keyStart]) &* 3 &+ Int(base[position &- 2])
                let bit: UInt64 = 1 << UInt64(truncatingIfNeeded: hash & 63)
                if seen & bit != 0 { flags |= TapeEntry.Flags.maybeDuplicates }
                seen |= bit
                guard try nextNonWhitespace() == UInt8(ascii: ":") else {
                    throw JSONSyntaxError(offset: position)
                }
                position &+= 1
                try scanValue()
                members &+= 1
                switch try nextNonWhitespace() {
                case UInt8(ascii: "}"):
                    position &+= 1
                    break memberLoop
                case UInt8(ascii: ","):
                    position &+= 1
                    if try nextNonWhitespace() == UInt8(ascii: "}") {
                        position &+= 1
                        break memberLoop
                    }
                default:
                    throw JSONSyntaxError(offset: position)
                }
            }
        }
        tape[index].length = members
        tape[index].flags = flags
        tape[index].next = Self.offset(self.count)
    }
}
