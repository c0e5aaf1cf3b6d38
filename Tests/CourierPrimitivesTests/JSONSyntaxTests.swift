import CourierPrimitives
import Foundation
import Testing

/// The strict checker against RFC 8259: what it accepts, what it refuses, and where it says the
/// fault is. The cases follow the grammar's corners (the kinds JSONTestSuite's `y_` and `n_` files
/// probe), written out here.
struct JSONSyntaxTests {
    @Test(arguments: [
        "0", "-0", "42", "-1.5e-10", "1E+2", "0.5", "1e400", "\"\"", "\"a\\u00e9\\ud83d\\ude00\"", "true",
        "false",
        "null", "[]", "{}", " [ 1 , 2 ] ", "\n\t{\"a\":[{\"b\":null}]}\r\n", "{\"a\":1,\"a\":2}",
        "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]", "\"\u{7F}\"", "\"é€😀\"", "[-1,0.0,1e1,1E-1]",
    ])
    func acceptsJSON(_ text: String) {
        #expect(JSONSyntax.firstError(in: Data(text.utf8)) == nil, "\(text.debugDescription) is JSON")
    }

    /// Each refused text with the line and column of the fault (an escape's backslash, a string's
    /// control character, the comma before a closing bracket) and a word of the reason given.
    @Test(
        arguments: [
            ("[1,]", 1, 3, "trailing comma"),
            ("{\"a\":1,}", 1, 7, "trailing comma"),
            ("{a:1}", 1, 2, "unquoted key"),
            ("['a']", 1, 2, nil),
            ("[01]", 1, 2, "leading zero"),
            ("[-]", 1, 3, "digit after -"),
            ("[1.]", 1, 4, "decimal point"),
            ("[1e]", 1, 4, "exponent"),
            ("[0x1F]", 1, 2, "hexadecimal"),
            ("[NaN]", 1, 2, nil),
            ("[-Infinity]", 1, 2, "Infinity"),
            ("[+1]", 1, 2, nil),
            ("\"abc", 1, 1, "never closed"),
            ("[\"\\x\"]", 1, 3, "escape"),
            ("[\"\\u12\"]", 1, 3, "four hexadecimal"),
            ("[\"\\ud800\"]", 1, 3, "lone surrogate"),
            ("[\"a\tb\"]", 1, 4, "control character"),
            ("[1] [2]", 1, 5, "one value"),
            ("", 1, 1, nil),
            ("[1,\n 2,\n 3,\n]", 3, 3, "trailing comma"),
            ("{\"a\" 1}", 1, 6, nil),
            ("// c\n{}", 1, 1, nil),
            ("[1 2]", 1, 4, nil),
            ("tru", 1, 1, nil),
            ("{\"é\":x}", 1, 6, nil),
        ] as [(String, Int, Int, String?)])
    func refusesWhatIsNotJSON(_ text: String, line: Int, column: Int, reason: String?) throws {
        let error = try #require(
            JSONSyntax.firstError(in: Data(text.utf8)), "\(text.debugDescription) is no JSON")
        #expect((error.line, error.column) == (line, column), "\(text.debugDescription): \(error)")
        if let reason { #expect(error.reason.contains(reason), "\(text.debugDescription): \(error)") }
        #expect(error.description.hasPrefix("malformed JSON at line \(line), column \(column): "))
    }

    @Test func refusesBytesThatAreNotUTF8() throws {
        let error = try #require(JSONSyntax.firstError(in: Data([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D])))
        #expect(error.reason.contains("UTF-8"))
        #expect(error.line == 1)
    }

    @Test func refusesAByteOrderMark() throws {
        let error = try #require(JSONSyntax.firstError(in: Data([0xEF, 0xBB, 0xBF] + Array("{}".utf8))))
        #expect(error.offset == 0)
        #expect(error.reason.contains("byte order mark"))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        // "é" is two bytes; the comma after it is the fifth character of the line.
        let error = try #require(JSONSyntax.firstError(in: Data("[\"é\",]".utf8)))
        #expect(error.column == 5)
        #expect(error.offset == 5)
    }

    @Test func nestingStopsAtTheBoundWithoutExhaustingTheStack() throws {
        let deepest =
            String(repeating: "[", count: JSONSyntax.maxDepth)
            + String(repeating: "]", count: JSONSyntax.maxDepth)
        #expect(JSONSyntax.firstError(in: Data(deepest.utf8)) == nil)
        let tooDeep =
            String(repeating: "[", count: JSONSyntax.maxDepth + 1)
            + String(repeating: "]", count: JSONSyntax.maxDepth + 1)
        let error = try #require(JSONSyntax.firstError(in: Data(tooDeep.utf8)))
        #expect(error.reason.contains("nested deeper"))
        // A hundred thousand open brackets are refused, not a crash.
        #expect(JSONSyntax.firstError(in: Data(String(repeating: "[", count: 100_000).utf8)) != nil)
    }

    @Test func parseStrictlyGivesTheValueOrTheFault() throws {
        let value = try JSONValue.parseStrictly(Data("{\"a\":[1,\"b\",null,true]}".utf8))
        #expect(value == .object(["a": .array([.int(1), .string("b"), .null, .bool(true)])]))
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parseStrictly(Data("{\"a\":1,}".utf8)) }
    }
}
