import Courier
import CourierTool
import Endpoints
import Foundation

/// `courier bench`: the Swift side of the benchmark harness (`make bench` drives it).
///
/// `courier bench fixtures DIR` writes the files both servers serve; `courier bench run`
/// drives one workload through one transport and prints one JSON line of results; `courier bench
/// decode` measures the JSON decoders alone; `courier bench cut-server` serves a file that it cuts
/// part way, for measuring resumed downloads.
enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "benchmark client and fixtures used by 'make bench' (see BENCHMARKS.md)"

    enum RunOptions {
        static let client = Option.value(
            "--client", placeholder: "curl|urlsession", help: "which transport (required)", required: true)
        static let workload = Option.value(
            "--workload", placeholder: "NAME",
            help:
                "small (default), small-raw (no decoding), small-typed and small-typed-raw (the same as an Endpoint<T>), transport (no manager), decode, download, stream (a slow consumer) or upload"
        )
        static let url = Option.value(
            "--url", placeholder: "URL", help: "the URL to request (required)", required: true)
        static let requests = Option.value(
            "--requests", placeholder: "N", help: "how many requests (default 1000)")
        static let concurrency = Option.value(
            "--concurrency", placeholder: "C", help: "requests in flight at once (default 1)")
        static let file = Option.value(
            "--file", placeholder: "PATH", help: "file to upload (upload workload)")
        static let connections = Option.value(
            "--connections", placeholder: "N",
            help: "curl: connections per host (default 8, CurlTransport's default)")
        static let executor = Option.value(
            "--executor", placeholder: "default|loop|global",
            help:
                "the tasks' executor preference: none, as an app writes by default; curl's loop thread; or the global pool"
        )
    }

    static let runSpec = ArgumentSpec(
        command: "bench run",
        summary: "Drives one workload through NetworkManager and one transport; prints one JSON line.",
        options: [
            RunOptions.client, RunOptions.workload, RunOptions.url, RunOptions.requests,
            RunOptions.concurrency, RunOptions.file, RunOptions.executor,
            RunOptions.connections,
        ]
    )

    enum FixturesOptions {
        static let bigMib = Option.value(
            "--big-mib", placeholder: "N", help: "size of big.bin (default 1024)")
    }

    static let fixturesSpec = ArgumentSpec(
        command: "bench fixtures",
        summary: "Writes the benchmark fixtures: WireMock mappings and the files they serve.",
        options: [FixturesOptions.bigMib],
        positionals: ["DIR"]
    )

    static func specs(in tool: CourierTool) -> [ArgumentSpec] {
        [runSpec, fixturesSpec, DecoderBench.spec, RequestBuildBench.spec, CutServer.spec]
    }

    static func run(_ arguments: [String], in tool: CourierTool) async throws -> Int32 {
        guard let sub = arguments.first, ["run", "fixtures", "decode", "build", "cut-server"].contains(sub)
        else {
            print(specs(in: tool).map(\.helpText).joined(separator: "\n\n"))
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
                to: URL(fileURLWithPath: directory), bigMiB: try parsed.int(FixturesOptions.bigMib) ?? 1024)
            return ExitStatus.success
        }
        if sub == "cut-server" {
            guard let parsed = try CutServer.spec.parseUnlessHelp(rest) else { return ExitStatus.success }
            try await CutServer.run(parsed)
            return ExitStatus.success
        }
        if sub == "build" {
            guard let parsed = try RequestBuildBench.spec.parseUnlessHelp(rest) else {
                return ExitStatus.success
            }
            try RequestBuildBench.run(parsed)
            return ExitStatus.success
        }
        if sub == "decode" {
            guard let parsed = try DecoderBench.spec.parseUnlessHelp(rest) else { return ExitStatus.success }
            try DecoderBench.run(parsed)
            return ExitStatus.success
        }
        guard let parsed = try runSpec.parseUnlessHelp(rest) else { return ExitStatus.success }
        let result = try await BenchRunner(parsed: parsed).run()
        print(result.json)
        return result.errors == 0 ? ExitStatus.success : ExitStatus.failure
    }
}
