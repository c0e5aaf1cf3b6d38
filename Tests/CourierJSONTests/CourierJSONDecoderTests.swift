import Courier
import CourierJSON
import Foundation
import Testing

/// A recursive value for nesting tests: an array of trees or a number.
indirect enum DiffTree: Codable, Equatable, Sendable {
    case leaf(Int)
    case node([DiffTree])

    init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var children: [DiffTree] = []
            while !list.isAtEnd { children.append(try list.decode(DiffTree.self)) }
            self = .node(children)
        } else {
            self = .leaf(try decoder.singleValueContainer().decode(Int.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .leaf(let value): try container.encode(value)
        case .node(let children): try container.encode(children)
        }
    }
}

/// The same documents through Foundation's `JSONDecoder` and `CourierJSONDecoder`: equal values or
/// the same `DecodingError` (case, coding path, type and message).
@Suite struct CourierJSONDecoderDifferentialTests {
    @Test func seededRandomDocumentsDecodeAlike() {
        // COURIER_JSON_SEED and COURIER_JSON_COUNT run other or longer sequences locally.
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["COURIER_JSON_SEED"].flatMap { UInt64($0) } ?? 0xC0FF_EE15
        let count =
            environment["COURIER_JSON_COUNT"].flatMap { Int($0) }
            ?? (environment["COURIER_SANITIZER"] == nil ? 2_000 : 100)
        var generator = RandomJSON(seed: seed)
        var mismatches: [String] = []
        var decodedPosts = 0
        for index in 0..<count {
            let data = generator.document()
            if let mismatch = differentialCheck(data) {
                mismatches.append("#\(index) \(String(decoding: data, as: UTF8.self))\n\(mismatch)")
                if mismatches.count >= 3 { break }
            }
            let decodes = DiffConfiguration.all.contains { configuration in
                (try? configuration.foundation.decode(DiffFeed.self, from: data)) != nil
                    || (try? configuration.foundation.decode([DiffPost].self, from: data)) != nil
            }
            if decodes {
                decodedPosts += 1
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n\n"))")
        // The generator must also produce documents that decode, or the check proves little.
        #expect(decodedPosts > count / 20, "only \(decodedPosts) of \(count) documents decoded as posts")
    }

    static let edgeCases: [String] = [
        "", " ", "{", "[", "]", "{}", "[]", "[1,]", "[1,,2]", #"{"a":1,}"#, #"{,}"#, "[,]", "nul", "tru",
        "falsey",
        "1 2", "[1] x", "\u{FEFF}[1]", "[01]", "[-]", "[1.]", "[.5]", "[1e5]", "[1E+5]", "[1e-5]", "[-0]",
        "[-0.0]",
        "[1e400]", "[1e-400]", "[0e400]", "[0e5]", "[0.0e5]", "[00e5]", "[0.000e1]", "[-0e-0]", "[128]",
        "[-129]", "[255]", "[256]", "[18446744073709551615]",
        "[18446744073709551616]", "[9223372036854775807]", "[9223372036854775808]", "[-9223372036854775808]",
        "[9007199254740993.0]", "[12345678901234567.5]", "[1.5]", "[2.0]", "[1e2]",
        // Integers read in one pass have up to 18 digits; longer ones take the full path.
        "[0,-0,7,-7,99,-128]", "[-01]", "[-00]", "[999999999999999999,-999999999999999999]",
        "[1000000000000000000,-1000000000000000000]",
        // ASCII strings of up to 15 bytes are built without validation; longer ones are validated.
        #"["","a","123456789012345","1234567890123456","a\"b","é"]"#,
        "[100000000000000000000.0e-3]",
        #"["\ud800"]"#, #"["\ud800\u0041"]"#, #"["\udc00"]"#, #"["\u00zz"]"#, #"["\x"]"#, "[\"a\u{01}b\"]",
        #"["\u0000"]"#, #"{"id":"1","id":"2"}"#, #"{"ID":"1","id":"2"}"#, #"{"\u0069d":"x","likes":1}"#,
        #"{"i\u0064":"x"}"#, #"{"created_at":1,"createdAt":2}"#, #"{"_id_":1}"#, #"{"a":[1,2,{"b":null}]}"#,
        "[[1,null],[],[2]]", "[[1],2]", #"[[1],["x"]]"#, "[null,[1]]", "[[[1]]]", #"{"a":[1,2],"b":[]}"#,
        #"{"a":[1,"x"]}"#, #"{"a":null}"#, #"{"dates":["nope"]}"#, #"{"dates":[],"nested":[["nope"]]}"#,
        #"[["2023-11-14T22:13:20Z"],["nope"]]"#, #"{"dates":["2023-11-14T22:13:20Z"],"nested":[[1]]}"#,
        #"{"tags":[1,null,"x",2.5]}"#, #"{"tags":null}"#, #"{"author":null}"#, #"{"author":[]}"#,
        #"{"likes":"x"}"#,
        #"{"posts":[{"id":"a","likes":1,"score":1,"tags":[],"kind":"video","createdAt":1},{"id":"b"}],"total":1}"#,
        #"{"posts":[{"id":"a","likes":1,"score":1,"tags":[],"kind":"film","createdAt":1}],"total":1}"#,
        #"{"posts":[{"id":"a","likes":1,"score":1,"tags":[],"kind":"video","created_at":"2023-11-14T22:13:20Z"}],"total":1}"#,
        #"[{"id":"a","likes":1,"score":"inf","tags":[],"kind":"text","createdAt":"nan","ratio":"-inf"}]"#,
        #"[{"id":"a","likes":1,"score":1,"tags":[],"kind":"text","createdAt":1,"blob":"aGVsbG8="}]"#,
        #"[{"id":"a","likes":1,"score":1,"tags":[],"kind":"text","createdAt":1,"blob":[1,2,300]}]"#,
        #"[{"id":"a","likes":1,"score":1,"tags":[],"kind":"text","createdAt":1,"avatar":"http://a b"}]"#,
        #"[{"id":"a","likes":1,"score":1,"tags":[],"kind":"text","createdAt":1,"extra":{"a_b":1,"a_b":2}}]"#,
        // Errors in dates, URLs and data read through a keyed container's generic decode, whose
        // container path is made only when the error is.
        #"{"posts":[{"id":"a","likes":1,"score":1,"tags":[],"kind":"text","createdAt":1},{"id":"b","likes":1,"score":1,"tags":[],"kind":"text","createdAt":"x"}],"total":2}"#,
        #"{"posts":[{"id":"a","likes":1,"score":1,"tags":[],"kind":"text","createdAt":1},{"id":"b","likes":1,"score":1,"tags":[],"kind":"text","createdAt":1,"avatar":7}],"total":2}"#,
        #"{"posts":[{"id":"b","likes":1,"score":1,"tags":[],"kind":"text","createdAt":"2023-11-14T22:13:20Z","blob":"%%"}],"total":1}"#,
        #"["2023-11-14T22:13:20Z","2023-11-14T22:13:20.5Z","2024-02-29T12:00:00-08:00"]"#,
        #"["1601-01-01T00:00:00Z","9999-12-31T23:59:59Z","2023-02-29T00:00:00Z","2023-11-14T22:13:60Z"]"#,
        #"["1600-12-31T23:59:59Z","0001-01-01T00:00:00Z","2023-11-14T22:13:20z","2023-11-14t22:13:20Z"]"#,
        // Large enough for the hash index, with duplicates, snake_case twins and an escaped key.
        "{" + (0..<40).map { "\"k_\($0)\":\($0)" }.joined(separator: ",")
            + #","id":"x","id":"y","likes":1,"created_at":2,"createdAt":3,"tags":[],"kind":"text","score":1,"\u006b_1":5}"#,
    ]

    @Test(arguments: edgeCases)
    func edgeCasesDecodeAlike(_ text: String) {
        let mismatch = differentialCheck(Data(text.utf8))
        #expect(mismatch == nil, "\(text)\n\(mismatch ?? "")")
    }

    @Test func invalidUTF8AndOtherEncodingsDecodeAlike() {
        let inputs: [[UInt8]] = [
            Array(#"["a"#.utf8) + [0xFF] + Array(#""]"#.utf8),
            Array(#"{"a":1,"b":""#.utf8) + [0xC3] + Array(#""}"#.utf8),
            Array(#"{""#.utf8) + [0xED, 0xA0, 0x80] + Array(#"":1}"#.utf8),
            [0xEF, 0xBB, 0xBF] + Array("[1,2]".utf8),
            Array("[1.5]".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            [0xFE, 0xFF] + Array("[\"x\"]".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
            [0x00, 0x31],
        ]
        for bytes in inputs {
            let mismatch = differentialCheck(Data(bytes))
            #expect(mismatch == nil, "\(bytes)\n\(mismatch ?? "")")
        }
    }

    @Test func nestingLimitIs512LikeFoundation() throws {
        for depth in [511, 512, 513, 600, 5_000] {
            let text = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
            let mismatch = differentialMismatch(DiffTree.self, Data(text.utf8), DiffConfiguration.all[0])
            #expect(mismatch == nil, "depth \(depth): \(mismatch ?? "")")
        }
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(throws: DecodingError.self) {
            try CourierJSONDecoder().decode(DiffTree.self, from: Data(deep.utf8))
        }
    }

    @Test func doublesRoundExactlyAsFoundation() throws {
        var random = SeededGenerator(state: 42)
        var texts: [String] = ["29.58", "0.1", "0.30000000000000004", "2.2250738585072011e-308", "4.9e-324"]
        for _ in 0..<(ProcessInfo.processInfo.environment["COURIER_SANITIZER"] == nil ? 20_000 : 1_000) {
            let value = Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
            switch random.next() % 4 {
            case 0: texts.append("\(value)")
            case 1: texts.append(String(format: "%.17g", value))
            case 2:
                texts.append(
                    String(format: "%.\(random.next() % 25)e", Double.random(in: 0..<1000, using: &random)))
            default:
                let digits = (0..<(1 + random.next() % 30)).map { _ in String(random.next() % 10) }.joined()
                texts.append("\(random.next() % 1000).\(digits)e\(Int(random.next() % 40) - 20)")
            }
        }
        let data = Data(("[" + texts.joined(separator: ",") + "]").utf8)
        let expected = try JSONDecoder().decode([Double].self, from: data).map(\.bitPattern)
        let actual = try CourierJSONDecoder().decode([Double].self, from: data).map(\.bitPattern)
        let firstDifference = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(expected == actual, "first difference: \(firstDifference.map { texts[$0.offset] } ?? "none")")
        let floats = try CourierJSONDecoder().decode(
            [Float].self, from: Data("[29.58,0.1,16777217,3.4028234e38]".utf8))
        let foundationFloats = try JSONDecoder().decode(
            [Float].self, from: Data("[29.58,0.1,16777217,3.4028234e38]".utf8))
        #expect(floats.map(\.bitPattern) == foundationFloats.map(\.bitPattern))
    }

    @Test func iso8601TimestampsMatchFoundation() throws {
        var random = SeededGenerator(state: 7)
        var texts: [String] = []
        for _ in 0..<(ProcessInfo.processInfo.environment["COURIER_SANITIZER"] == nil ? 5_000 : 250) {
            let seconds = Double(Int64(random.next() % 260_000_000_000) - 11_000_000_000)
            texts.append(Date(timeIntervalSince1970: seconds).formatted(.iso8601))
        }
        let data = Data(("[\"" + texts.joined(separator: "\",\"") + "\"]").utf8)
        let mismatch = differentialMismatch([Date].self, data, DiffConfiguration.all[1])
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }
}

/// Behaviour that is easier to state directly than through the differential check.
@Suite struct CourierJSONDecoderTests {
    struct Stamp: Decodable, Equatable {
        var at: Date
    }

    @Test func integerOverflowIsDataCorruptedAtTheRoot() {
        let error = #expect(throws: DecodingError.self) {
            try CourierJSONDecoder().decode([Int8].self, from: Data("[1, 128]".utf8))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.isEmpty)
    }

    @Test func typeMismatchKeepsTheCodingPath() {
        let data = Data(#"{"posts":[{"id":"a","likes":1},{"id":"b","likes":"many"}]}"#.utf8)
        struct Small: Decodable { var id: String; var likes: Int }
        struct Page: Decodable { var posts: [Small] }
        let error = #expect(throws: DecodingError.self) {
            try CourierJSONDecoder().decode(Page.self, from: data)
        }
        guard case .typeMismatch(let type, let context) = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(String(describing: type) == "Int")
        #expect(ResponseDecoding.pathString(context.codingPath) == "posts[1].likes")
        #expect(context.debugDescription == "Expected to decode Int but found a string instead.")
    }

    @Test func formattedAndSecondsDateStrategies() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        var decoder = CourierJSONDecoder()
        decoder.dateDecodingStrategy = .formatted(formatter)
        let formatted = try decoder.decode(Stamp.self, from: Data(#"{"at":"2023-11-14 22:13"}"#.utf8))
        #expect(formatted.at == Date(timeIntervalSince1970: 1_700_000_000 - 20))
        let error = #expect(throws: DecodingError.self) {
            try decoder.decode(Stamp.self, from: Data(#"{"at":"yesterday"}"#.utf8))
        }
        if case .dataCorrupted(let context) = error {
            #expect(ResponseDecoding.pathString(context.codingPath) == "at")
        } else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
        }
        decoder.dateDecodingStrategy = .millisecondsSince1970
        #expect(
            try decoder.decode(Stamp.self, from: Data(#"{"at":1700000000500}"#.utf8)).at.timeIntervalSince1970
                == 1_700_000_000.5)
    }

    @Test func aDateThatIsNotISO8601NamesItsFieldAndValue() {
        struct Dates: Decodable { var dates: [Date] }
        var decoder = CourierJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let field = #expect(throws: DecodingError.self) {
            try decoder.decode(Stamp.self, from: Data(#"{"at":"07/12/2026"}"#.utf8))
        }
        let element = #expect(throws: DecodingError.self) {
            try decoder.decode(Dates.self, from: Data(#"{"dates":["2026-12-07T10:00:00Z","soon"]}"#.utf8))
        }
        for (error, path, value) in [(field, "at", "07/12/2026"), (element, "dates[1]", "soon")] {
            guard case .dataCorrupted(let context) = error else {
                Issue.record("expected dataCorrupted, got \(String(describing: error))")
                continue
            }
            #expect(ResponseDecoding.pathString(context.codingPath) == path)
            #expect(
                context.debugDescription
                    == "Expected date string to be ISO8601-formatted, found \"\(value)\".")
        }
    }

    @Test func userInfoReachesDecodableTypes() throws {
        struct Reader: Decodable {
            var seen: String?
            init(from decoder: any Decoder) throws {
                seen = decoder.userInfo[CodingUserInfoKey(rawValue: "tenant")!] as? String
            }
        }
        var decoder = CourierJSONDecoder()
        decoder.userInfo[CodingUserInfoKey(rawValue: "tenant")!] = "acme"
        #expect(try decoder.decode(Reader.self, from: Data("{}".utf8)).seen == "acme")
    }

    @Test func decimalsAndCustomKeys() throws {
        #expect(try CourierJSONDecoder().decode([Decimal].self, from: Data("[1.25,-3]".utf8)) == [1.25, -3])
        struct Upper: Decodable { var name: String }
        var decoder = CourierJSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            DynamicKey(stringValue: path.last!.stringValue.lowercased())
        }
        #expect(try decoder.decode(Upper.self, from: Data(#"{"NAME":"x"}"#.utf8)).name == "x")
    }

    /// The custom key strategy gets each key's whole coding path, array positions included (the
    /// decoder carries those as numbers and makes their keys only for a path), as Foundation does.
    @Test func customKeyStrategySeesArrayPositionsInThePath() throws {
        struct Names: Decodable, Equatable {
            var names: [String]
            init(from decoder: any Decoder) throws {
                names = try decoder.container(keyedBy: DynamicKey.self).allKeys.map(\.stringValue).sorted()
            }
        }
        struct Page: Decodable, Equatable { var items: [[Names]] }
        let data = Data(#"{"items":[[{"a":1}],[{"b":2},{"c":[3],"d":4}]]}"#.utf8)
        let strategy: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            DynamicKey(
                stringValue: path.map { $0.intValue.map { "#\($0)" } ?? $0.stringValue }.joined(
                    separator: "/"))
        }
        var courier = CourierJSONDecoder()
        courier.keyDecodingStrategy = .custom(strategy)
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .custom(strategy)
        let page = try courier.decode(Page.self, from: data)
        #expect(page.items[1][1].names == ["items/#1/#1/c", "items/#1/#1/d"])
        #expect(page == (try foundation.decode(Page.self, from: data)))
    }

    /// Reads every key of a large object in reverse order: one lookup per key must not scan the
    /// object, or this takes minutes instead of well under a second.
    struct ReverseReader: Decodable {
        var sum = 0
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: DynamicKey.self)
            let count = decoder.userInfo[CodingUserInfoKey(rawValue: "count")!] as? Int ?? 0
            for index in (0..<count).reversed() {
                sum += try container.decode(Int.self, forKey: DynamicKey(stringValue: "key\(index)"))
            }
        }
    }

    /// Scanning the object for each key would be 800 million key comparisons here, many minutes:
    /// the time limit marks the test failed after one (the decode itself runs on to its end).
    @Test(.timeLimit(.minutes(1))) func largeObjectsAreLookedUpWithoutScanning() throws {
        let count = 40_000
        // A duplicate of the first key at the end: the first one must still win.
        let members = (0..<count).map { "\"key\($0)\":\($0)" } + ["\"key0\":-1"]
        let data = Data(("{" + members.joined(separator: ",") + "}").utf8)
        var decoder = CourierJSONDecoder()
        decoder.userInfo[CodingUserInfoKey(rawValue: "count")!] = count
        let reader = try decoder.decode(ReverseReader.self, from: data)
        let dictionary = try decoder.decode([String: Int].self, from: data)
        #expect(reader.sum == count * (count - 1) / 2)
        #expect(dictionary == (try JSONDecoder().decode([String: Int].self, from: data)))
    }

    @Test func largePageDecodesLikeFoundation() throws {
        var posts: [String] = []
        for index in 0..<2_000 {
            posts.append(
                #"{"id":"p\#(index)","likes":\#(index * 7),"score":\#(Double(index) / 7),"tags":["a","b"],"kind":"video","#
                    + #""createdAt":"2023-11-14T22:\#(10 + index % 50):20Z","author":{"name":"n","followers":\#(index)}}"#
            )
        }
        let data = Data(("[" + posts.joined(separator: ",") + "]").utf8)
        var foundation = DiffConfiguration.all[1]
        foundation.snakeCase = false
        #expect(differentialMismatch([DiffPost].self, data, foundation) == nil)
        #expect(try foundation.courier.decode([DiffPost].self, from: data).count == 2_000)
    }
}
