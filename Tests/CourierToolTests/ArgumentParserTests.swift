import CourierTool
import Testing

private let header = Option.value("--header", "-H", placeholder: "HEADER", help: "h", repeatable: true)
private let fail = Option.flag("--fail", "-f", help: "f")
private let port = Option.value("--port", placeholder: "PORT", help: "p")
private let spec = ArgumentSpec(
    command: "demo", summary: "test", options: [header, fail, port], positionals: ["METHOD", "URL"])

@Test func parsesOptionsFlagsAndPositionals() throws {
    let parsed = try spec.parse(["GET", "-H", "A: 1", "--header=B: 2", "-f", "http://x", "--port", "80"])
    #expect(parsed.positionals == ["GET", "http://x"])
    #expect(parsed.all(header) == ["A: 1", "B: 2"])
    #expect(parsed.has(fail))
    #expect(try parsed.int(port) == 80)
}

@Test func doubleDashEndsOptions() throws {
    let parsed = try spec.parse(["--", "-f", "x"])
    #expect(parsed.positionals == ["-f", "x"])
    #expect(!parsed.has(fail))
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
    #expect(throws: UsageError.self) { try parsed.int(port) }
}

@Test func helpListsEveryOption() {
    let text = spec.helpText
    for name in ["--header", "-H", "--fail", "--port", "--help"] {
        #expect(text.contains(name))
    }
}

@Test func usageLineComesFromTheDeclarations() {
    #expect(spec.usage == "courier demo METHOD URL [--header HEADER]... [--fail] [--port PORT]")
    #expect(spec.helpText.contains("usage: " + spec.usage))
    #expect(spec.helpText.contains("  --header, -H HEADER"))
}
