import Testing

@testable import CourierCLI

private let spec = ArgumentSpec(
    command: "demo", summary: "test", usage: "demo",
    options: [
        .init(names: ["--header", "-H"], takesValue: true, help: "h"),
        .init(names: ["--fail", "-f"], takesValue: false, help: "f"),
        .init(names: ["--port"], takesValue: true, help: "p"),
    ],
    positionals: ["METHOD", "URL"]
)

@Test func parsesOptionsFlagsAndPositionals() throws {
    let parsed = try spec.parse(["GET", "-H", "A: 1", "--header=B: 2", "-f", "http://x", "--port", "80"])
    #expect(parsed.positionals == ["GET", "http://x"])
    #expect(parsed.all("--header") == ["A: 1", "B: 2"])
    #expect(parsed.has("--fail"))
    #expect(try parsed.int("--port") == 80)
}

@Test func doubleDashEndsOptions() throws {
    let parsed = try spec.parse(["--", "-f", "x"])
    #expect(parsed.positionals == ["-f", "x"])
    #expect(!parsed.has("--fail"))
}

@Test(arguments: [
    (["--nope"], "unknown option '--nope'"),
    (["--header"], "option '--header' needs a value"),
    (["--fail=yes"], "option '--fail' takes no value"),
    (["a", "b", "c"], "unexpected argument 'c'"),
])
func rejectsBadArguments(arguments: [String], message: String) {
    #expect {
        try spec.parse(arguments)
    } throws: { error in
        (error as? UsageError)?.description.contains(message) == true
    }
}

@Test func rejectsNonNumericPort() throws {
    let parsed = try spec.parse(["--port", "eighty"])
    #expect(throws: UsageError.self) { try parsed.int("--port") }
}

@Test func helpListsEveryOption() {
    let text = spec.helpText
    for name in ["--header", "-H", "--fail", "--port", "--help"] {
        #expect(text.contains(name))
    }
}
