import Courier
import CourierConfiguration
import Foundation
import Testing

/// `courier.json` refuses keys it does not know, at every level, and reads the timeouts as
/// connect / idle / total.
struct ConfigurationKeysTests {
    private func decode(_ json: String) throws -> Configuration {
        try Configuration.decode(Data(json.utf8), source: "test.json")
    }

    @Test(arguments: [
        (#"{ "transprt": "curl" }"#, "test.json: unknown key \"transprt\"; did you mean \"transport\"?"),
        (
            #"{ "timeouts": { "conect": 5 } }"#,
            "test.json: unknown key \"timeouts.conect\"; did you mean \"connect\"?"
        ),
        (
            #"{ "retry": { "maxAttempt": 2 } }"#,
            "test.json: unknown key \"retry.maxAttempt\"; did you mean \"maxAttempts\"?"
        ),
        (
            #"{ "retry": { "zzzzzzzzzz": 2 } }"#,
            "test.json: unknown key \"retry.zzzzzzzzzz\"; known keys: baseDelay, maxAttempts, maxDelay"
        ),
    ])
    func unknownKeysAreRefusedWithTheirPathAndASuggestion(json: String, expected: String) {
        let error = #expect(throws: CourierError.self) { try decode(json) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message == expected)
    }

    @Test func everyProblemIsReportedAtOnce() {
        let json = """
            { "transprt": "curl", "decodng": {}, "retry": { "maxAttempt": 2, "baseDelai": 1 },
              "maxResponseBytes": "big", "timeouts": { "idle": 0 } }
            """
        let error = #expect(throws: CourierError.self) { try decode(json) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.codingPath == "decodng")
        let lines = error?.message.split(separator: "\n").map(String.init) ?? []
        #expect(lines.count == 7, "\(lines)")
        #expect(lines.first == "test.json: 6 problems:")
        #expect(
            Array(lines.dropFirst().prefix(4)) == [
                "  - unknown key \"decodng\"; did you mean \"decoding\"?",
                "  - unknown key \"transprt\"; did you mean \"transport\"?",
                "  - unknown key \"retry.baseDelai\"; did you mean \"baseDelay\"?",
                "  - unknown key \"retry.maxAttempt\"; did you mean \"maxAttempts\"?",
            ])
        #expect(
            lines.dropFirst(5).first?.hasPrefix("  - invalid configuration at maxResponseBytes: ") == true)
        #expect(lines.last == "  - timeouts.idle must be a positive number of seconds, got 0.0")
    }

    @Test func defaultHeadersMayHaveAnyName() throws {
        let configuration = try decode(#"{ "defaultHeaders": { "X-Transprt": "a" } }"#)
        #expect(configuration.defaultHeaders == ["X-Transprt": "a"])
    }

    @Test func timeoutsAreConnectIdleAndTotal() throws {
        let defaults = try decode("{}").timeouts
        #expect(defaults.connect == .seconds(10))
        #expect(defaults.idle == .seconds(60))
        #expect(defaults.total == nil)
        let given = try decode(#"{ "timeouts": { "connect": 2, "idle": 7, "total": 300 } }"#)
        #expect(
            given.timeouts
                == Configuration.Timeouts(connect: .seconds(2), idle: .seconds(7), total: .seconds(300)))
        #expect(given.transferOptions.connectTimeout == .seconds(2))
        #expect(given.transferOptions.totalTimeout == .seconds(300))
        #expect(try decode(#"{ "timeouts": { "idle": 7 } }"#).transferOptions.totalTimeout == nil)
        #expect(try decode(#"{ "timeouts": { "idle": 7 } }"#).transferOptions.idleTimeout == .seconds(7))
        #expect(given.transferOptions.totalTimeout == .seconds(300))
    }

    @Test func requestIsReadAsIdle() throws {
        let configuration = try decode(#"{ "timeouts": { "request": 45 } }"#)
        #expect(configuration.timeouts.idle == .seconds(45))
        #expect(configuration.timeouts.total == nil)
    }

    @Test func requestAndIdleTogetherAreRefused() {
        let error = #expect(throws: CourierError.self) {
            try decode(#"{ "timeouts": { "request": 45, "idle": 30 } }"#)
        }
        #expect(
            error?.message
                == "test.json: timeouts gives both \"idle\" and its old name \"request\"; keep \"idle\"")
    }

    @Test(arguments: [
        (#"{ "timeouts": { "idle": 0 } }"#, "timeouts.idle must be a positive number of seconds"),
        (#"{ "timeouts": { "total": -1 } }"#, "timeouts.total must be a positive number of seconds"),
    ])
    func timeoutsMustBePositive(json: String, expected: String) {
        let error = #expect(throws: CourierError.self) { try decode(json) }
        #expect(error?.message.contains(expected) == true, "\(String(describing: error?.message))")
    }

    @Test func roundTripsTimeoutsThroughJSON() throws {
        let configuration = Configuration(
            timeouts: .init(connect: .seconds(3), idle: .seconds(4), total: .seconds(5)))
        #expect(try Configuration.decode(JSONEncoder().encode(configuration)) == configuration)
        let noTotal = Configuration(timeouts: .init(connect: .seconds(3), idle: .seconds(4)))
        let text = String(decoding: try JSONEncoder().encode(noTotal), as: UTF8.self)
        #expect(!text.contains("request"), "\(text)")
        #expect(try Configuration.decode(Data(text.utf8)) == noTotal)
    }
}
