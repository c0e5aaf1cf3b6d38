import Courier
import CourierConfiguration
import Foundation
import Testing

/// `courier.json` is JSON to the letter: what JSON5 allows, and Foundation's parser accepts on
/// some platforms, is refused with its line and column, since another tool reading the file
/// would fail on it.
struct ConfigurationStrictJSONTests {
    @Test(arguments: [
        (
            "{ \"retry\": { \"maxAttempts\": 3, } }", "line 1, column 30", "trailing comma"
        ),
        ("{\n  \"retry\": {\n    \"maxAttempts\": 3,\n  }\n}", "line 3, column 21", "trailing comma"),
        ("{ \"defaultHeaders\": { \"A\": \"b\" }, }", "line 1, column 33", "trailing comma"),
        ("{ \"transport\": \"curl\" // the fast one\n}", "line 1, column 23", "comment"),
        ("/* settings */ { \"transport\": \"curl\" }", "line 1, column 1", "comment"),
        ("{ \"transport\": 'curl' }", "line 1, column 16", "single-quoted"),
        ("{ 'transport': \"curl\" }", "line 1, column 3", "single-quoted"),
        ("{ transport: \"curl\" }", "line 1, column 3", "unquoted key"),
        ("{ \"maxResponseBytes\": NaN }", "line 1, column 23", "NaN"),
        ("{ \"maxResponseBytes\": Infinity }", "line 1, column 23", "Infinity"),
        ("{ \"maxResponseBytes\": -Infinity }", "line 1, column 23", "-Infinity"),
        ("{ \"maxResponseBytes\": 0100 }", "line 1, column 23", "leading zero"),
        ("{ \"maxResponseBytes\": +100 }", "line 1, column 23", "+ sign"),
        ("{ \"maxResponseBytes\": 0x100 }", "line 1, column 23", "hexadecimal"),
        ("{ \"timeouts\": { \"connect\": .5 } }", "line 1, column 28", "decimal point"),
        ("{ \"timeouts\": { \"connect\": 5. } }", "line 1, column 30", "decimal point"),
        ("{ \"defaultHeaders\": { \"A\": \"tab\there\" } }", "line 1, column 32", "control character"),
        ("{ \"defaultHeaders\": { \"A\": \"\\x41\" } }", "line 1, column 29", "invalid escape"),
        ("{ \"defaultHeaders\": { \"A\": \"\\uD800\" } }", "line 1, column 29", "lone surrogate"),
        ("{ \"transport\": \"curl\" } { }", "line 1, column 25", "one value"),
        ("\u{FEFF}{ \"transport\": \"curl\" }", "line 1, column 1", "byte order mark"),
        ("", "line 1, column 1", "no JSON value"),
        (String(repeating: "[", count: 600), "line 1, column 513", "nested deeper than 512"),
        ("{ \"timeouts\": { \"connect\": 5 \"idle\": 3 } }", "line 1, column 30", "expected , or }"),
        // Columns count characters, not bytes.
        ("{ \"defaultHeaders\": { \"é\": \"a\", } }", "line 1, column 31", "trailing comma"),
    ])
    func json5IsRefusedWithItsPosition(json: String, position: String, reason: String) {
        let error = #expect(throws: CourierError.self) {
            try Configuration.decode(Data(json.utf8), source: "courier.json")
        }
        #expect(error?.code == .invalidConfiguration)
        let message = error?.message ?? ""
        #expect(message.hasPrefix("courier.json: invalid configuration: malformed JSON at "), "\(message)")
        #expect(message.contains(position), "\(message)")
        #expect(message.contains(reason), "\(message)")
    }

    @Test func strictJSONStillLoads() throws {
        let json = """
            {
              "transport": "curl",
              "timeouts": { "connect": 2.5e0, "idle": 30 },
              "retry": { "maxAttempts": 4, "baseDelay": 0.25, "maxDelay": 8 },
              "defaultHeaders": { "X-Client": "courier\\/1" }
            }
            """
        let configuration = try Configuration.decode(Data(json.utf8))
        #expect(configuration.transport == .curl)
        #expect(configuration.retry.maxAttempts == 4)
    }
}
