import Courier
import Endpoints
import Foundation

/// `courier bench`: the Swift side of the benchmark harness (`make bench` drives it).
///
/// `courier bench fixtures DIR` writes the files both servers serve; `courier bench run`
/// drives one workload through one transport and prints one JSON line of results.
enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "benchmark client and fixtures used by 'make bench' (see BENCHMARKS.md)"

    static let runSpec = ArgumentSpec(
        command: "bench run",
        summary: "Drives one workload through NetworkManager and one transport; prints one JSON line.",
        usage:
            "courier bench run --client curl|urlsession --workload small|small-raw|decode|download|upload --url URL [--requests N] [--concurrency C] [--file PATH]",
        options: [
            .init(names: ["--client"], takesValue: true, help: "curl or urlsession", valueName: "NAME"),
            .init(
                names: ["--workload"], takesValue: true,
                help: "small, small-raw (no decoding), decode, download or upload",
                valueName: "NAME"),
            .init(names: ["--url"], takesValue: true, help: "the URL to request", valueName: "URL"),
            .init(
                names: ["--requests"], takesValue: true, help: "how many requests (default 1000)",
                valueName: "N"),
            .init(
                names: ["--concurrency"], takesValue: true, help: "requests in flight at once (default 1)",
                valueName: "C"),
            .init(
                names: ["--file"], takesValue: true, help: "file to upload (upload workload)",
                valueName: "PATH"),
        ]
    )

    static let fixturesSpec = ArgumentSpec(
        command: "bench fixtures",
        summary: "Writes the benchmark fixtures: WireMock mappings and the files they serve.",
        usage: "courier bench fixtures DIR [--big-mib N]",
        options: [
            .init(
                names: ["--big-mib"], takesValue: true, help: "size of big.bin (default 1024)", valueName: "N"
            )
        ],
        positionals: ["DIR"]
    )

    static func run(_ arguments: [String]) async throws -> Int32 {
        guard let sub = arguments.first, sub == "run" || sub == "fixtures" else {
            print(
                "usage: courier bench run ... | courier bench fixtures DIR\n\n\(runSpec.helpText)\n\n\(fixturesSpec.helpText)"
            )
            return arguments.contains("--help") || arguments.contains("-h")
                ? ExitStatus.success : ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        if sub == "fixtures" {
            guard let parsed = try fixturesSpec.parseUnlessHelp(rest) else { return ExitStatus.success }
            guard let directory = parsed.positionals.first else {
                throw UsageError("bench fixtures needs DIR")
            }
            try BenchFixtures.write(
                to: URL(fileURLWithPath: directory), bigMiB: try parsed.int("--big-mib") ?? 1024)
            return ExitStatus.success
        }
        guard let parsed = try runSpec.parseUnlessHelp(rest) else { return ExitStatus.success }
        let result = try await BenchRunner(parsed: parsed).run()
        print(result.json)
        return result.errors == 0 ? ExitStatus.success : ExitStatus.failure
    }
}
