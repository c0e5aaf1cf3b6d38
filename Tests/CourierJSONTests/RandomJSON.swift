import Foundation

/// A small seeded generator (SplitMix64), so that every run tests the same documents.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random JSON documents shaped like the differential models: mostly well-formed values of the
/// right type, with wrong types, nulls, missing and duplicate keys, snake_case keys, numbers at
/// their edges, escapes, odd Unicode, and byte-level damage mixed in.
struct RandomJSON {
    var random: SeededGenerator
    /// A clean document has only well-formed values of the right types (optional fields may be
    /// missing); the others are damaged at random.
    var clean = false

    init(seed: UInt64) { random = SeededGenerator(state: seed) }

    /// `true` with the given chance, or always in a clean document.
    private mutating func valid(_ percent: Int) -> Bool { clean || chance(percent) }

    private mutating func safeNumber() -> String {
        pick(["0", "1", "-7", "42", "29.58", "0.1", "1e2", "-2.5", "1.0", "3.25e-3", "100"])
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items.randomElement(using: &random)! }

    static let edgeNumbers = [
        "0", "-0", "1", "-1", "127", "128", "-128", "-129", "255", "256", "65535", "4294967295", "4294967296",
        "2147483647", "-2147483648", "9007199254740991", "9007199254740992", "9007199254740993",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "1e2", "1E2", "1.0", "1.5", "-1.5", "0.1", "29.58",
        "1e400", "-1e400", "1e-400", "4.9e-324", "2.2250738585072014e-308", "1.7976931348623157e308",
        "3.4028235e38", "3.4028236e38", "1e-50", "0e5", "0.0", "-0.0", "01", "-", "1.", ".5", "1e", "1e+",
        "1.5e3", "12345678901234567.5", "9223372036854775807.0", "100000000000000000000.0e-3", "2.5e1",
        "0.30000000000000004", "123456789012345678901234567890", "1.e5", "--1", "1-2", "1.2.3", "+1",
    ]

    static let strings = [
        "", "a", "video", "photo", "text", "hello world", "caf\u{E9}", "\u{1F600}", "line\nbreak",
        "2023-11-14T22:13:20Z", "2023-11-14T22:13:20.123Z", "2023-11-14T22:13:20+01:00",
        "1601-01-01T00:00:00Z",
        "2024-02-29T23:59:59Z", "2023-02-29T00:00:00Z", "2023-13-01T00:00:00Z", "1969-12-31T23:59:59Z",
        "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "2023-11-14T24:00:00Z", "2023-11-14 22:13:20Z",
        "aGVsbG8=", "aGVsbG8", "not base64!", "http://example.com/a?b=c", "http://a b", "", "inf", "-inf",
        "nan",
        "Infinity", "K", "\u{212A}", "e\u{301}", "\u{E9}",
    ]

    static let escapedStrings = [
        #"a\nb"#, #"\u00e9"#, #"\ud83d\ude00"#, #"\ud83d"#, #"\ude00"#, #"\u12G4"#, #"\q"#, #"\/\\\""#,
        #"\u0000"#, #"tab\there"#, #"\u212A"#, #"2023-11-14T22:13:20\u005A"#, #"vid\u0065o"#,
    ]

    static let keys = [
        "id", "likes", "score", "ratio", "tags", "author", "kind", "level", "createdAt", "created_at",
        "flags",
        "small", "tiny", "big", "wide", "avatar", "blob", "extra", "name", "handleName", "handle_name",
        "followers", "posts", "nextPage", "next_page", "total", "super", "_id_", "ID", "i\u{64}", "unknown",
    ]

    mutating func number() -> String {
        if chance(60) { return pick(Self.edgeNumbers) }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return String(Int.random(in: -1_000_000...1_000_000, using: &random))
        case 1:
            let value = Double.random(in: -1e6...1e6, using: &random)
            return chance(50)
                ? "\(value)" : String(format: "%.\(Int.random(in: 0...20, using: &random))g", value)
        case 2: return String(format: "%.17g", Double(bitPattern: random.next()))
        default:
            return "\(Int.random(in: 1...9, using: &random))e\(Int.random(in: -330...330, using: &random))"
        }
    }

    mutating func string() -> String {
        if chance(25) { return "\"" + pick(Self.escapedStrings) + "\"" }
        let text = pick(Self.strings)
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += chance(90) ? "\\n" : "\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"" + escaped + "\""
    }

    mutating func key() -> String {
        chance(10) ? string() : "\"" + pick(Self.keys) + "\""
    }

    mutating func value(depth: Int) -> String {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<25: return number()
        case 25..<50: return string()
        case 50..<56: return "true"
        case 56..<62: return "false"
        case 62..<72: return "null"
        case 72..<86 where depth < 5: return array(depth: depth + 1)
        case 86..<100 where depth < 5: return object(depth: depth + 1)
        default: return number()
        }
    }

    mutating func array(depth: Int) -> String {
        let count = Int.random(in: 0...5, using: &random)
        var items = (0..<count).map { _ in value(depth: depth) }
        if chance(70), !items.isEmpty {
            // Homogeneous arrays decode as [Double], [String] and so on more often.
            let first = items[0]
            items = items.map { chance(80) ? first : $0 }
        }
        let comma = count > 0 && chance(5) ? "," : ""
        return "[" + items.joined(separator: chance(10) ? " , " : ",") + comma + "]"
    }

    mutating func object(depth: Int) -> String {
        let count = Int.random(in: 0...8, using: &random)
        var members = (0..<count).map { _ in key() + ":" + value(depth: depth) }
        if chance(10), let first = members.first { members.append(first) }
        return "{" + members.joined(separator: ",") + (count > 0 && chance(5) ? "," : "") + "}"
    }

    /// A post-shaped object: each field right most of the time.
    mutating func post(snakeCase: Bool) -> String {
        var members: [String] = []
        func add(_ key: String, _ valid: String) {
            members.append("\"\(key)\":\(valid)")
        }
        if !chance(5) || clean {
            add("id", valid(85) ? "\"post-\(Int.random(in: 0...999, using: &random))\"" : value(depth: 3))
        }
        if !chance(5) || clean {
            add("likes", valid(80) ? String(Int.random(in: 0...5000, using: &random)) : number())
        }
        if !chance(5) || clean { add("score", valid(70) ? safeNumber() : value(depth: 3)) }
        if chance(60) {
            add(
                "ratio",
                valid(70) ? safeNumber() : pick(["\"inf\"", "\"nan\"", "\"-inf\"", "null", number()]))
        }
        if !chance(5) || clean {
            let tags = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                pick(["\"a\"", "\"caf\u{E9}\"", #""\u00e9\n""#])
            }
            add("tags", valid(80) ? "[" + tags.joined(separator: ",") + "]" : value(depth: 3))
        }
        if chance(60) {
            let handle = snakeCase ? "handle_name" : "handleName"
            let followers = valid(85) ? "12" : number()
            add(
                "author",
                valid(85)
                    ? "{\"name\":\"n\",\"\(handle)\":\(chance(80) ? string() : "null"),\"followers\":\(followers)}"
                    : value(depth: 3))
        }
        if !chance(5) || clean {
            add("kind", valid(80) ? pick(["\"video\"", "\"photo\"", "\"text\""]) : value(depth: 3))
        }
        if chance(60) { add("level", valid(80) ? pick(["1", "2", "null"]) : value(depth: 3)) }
        if !chance(5) || clean {
            let date =
                chance(50)
                ? safeNumber() : pick(["\"2023-11-14T22:13:20Z\"", "\"2024-02-29T23:59:59.250Z\""])
            add(snakeCase ? "created_at" : "createdAt", valid(70) ? date : string())
        }
        if chance(50) { add("flags", valid(80) ? "[true,false,null]" : value(depth: 3)) }
        if chance(40) { add("small", valid(70) ? pick(["-128", "127", "0"]) : number()) }
        if chance(40) { add("tiny", valid(70) ? pick(["255", "0", "2.0"]) : number()) }
        if chance(40) { add("big", valid(70) ? pick(["18446744073709551615", "0"]) : number()) }
        if chance(40) {
            add("wide", valid(70) ? pick(["-9223372036854775808", "9007199254740993"]) : number())
        }
        if chance(40) {
            add(
                "avatar",
                valid(70) ? "\"http://example.com/v/\(Int.random(in: 0...9, using: &random)).mp4\"" : string()
            )
        }
        if chance(40) {
            add(
                "blob",
                valid(60) ? pick(["\"aGVsbG8=\"", "[1,2,255]"]) : pick(["[256]", "\"@@\"", number()]))
        }
        // At most one bad value in a dictionary: which of several fails first is not defined.
        if chance(40) {
            add(
                "extra", valid(70) ? "{\"a_b\":1,\"cD\":2}" : pick(["{\"a\":\"x\"}", "[]", "null", number()]))
        }
        if !clean && chance(10) { members.append(key() + ":" + value(depth: 3)) }
        if !clean && chance(5), let first = members.first { members.append(first) }
        members.shuffle(using: &random)
        if chance(80) { members.sort { $0.hasPrefix("\"id\"") && !$1.hasPrefix("\"id\"") } }
        return "{" + members.joined(separator: chance(20) ? ",\n " : ",") + "}"
    }

    /// One document.
    mutating func document() -> Data {
        clean = chance(50)
        let snakeCase = chance(30)
        var text: String
        switch Int.random(in: 0..<10, using: &random) {
        case 0...2:
            let posts = (0..<Int.random(in: 0...3, using: &random)).map { _ in post(snakeCase: snakeCase) }
            let next = snakeCase ? "next_page" : "nextPage"
            text =
                "{\"posts\":[\(posts.joined(separator: ","))],\"\(next)\":\(chance(70) ? "2" : "null"),\"total\":\(chance(80) ? "3" : number())}"
        case 3...4:
            text =
                "["
                + (0..<Int.random(in: 0...3, using: &random)).map { _ in post(snakeCase: snakeCase) }.joined(
                    separator: ",") + "]"
        case 5: text = post(snakeCase: snakeCase)
        case 6:
            text =
                "[" + (0..<Int.random(in: 0...6, using: &random)).map { _ in number() }.joined(separator: ",")
                + "]"
        case 7: text = array(depth: 3)
        case 8: text = object(depth: 2)
        default: text = value(depth: 4)
        }
        if chance(20) { text = " \t\r\n" + text + "\n " }
        var bytes = Array(text.utf8)
        if !clean && chance(8), !bytes.isEmpty {
            // Damage: truncate, flip a byte, or insert an invalid UTF-8 byte.
            switch Int.random(in: 0..<3, using: &random) {
            case 0: bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
            case 1:
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
                    in: 0...255, using: &random)
            default:
                bytes.insert(
                    pick([0xFF, 0xC3, 0x80, 0xED]), at: Int.random(in: 0...bytes.count, using: &random))
            }
        }
        return Data(bytes)
    }
}
