import Courier
import CourierCurl
import CourierTool
import CourierURLSession
import Endpoints
import Foundation
import MockServer
import MockServerContract
import SocialBackend

/// `courier demo`: the whole social flow over one or both transports, with a report.
enum DemoCommand: Command {
    static let name = "demo"
    static let summary = "run the social flow (signup → upload → feed → tweets → cookies → cache)"

    enum Options {
        static let transport = Option.value(
            "--transport", placeholder: "curl|urlsession|both",
            help: "curl, urlsession or both (default both)")
        static let baseUrl = Option.value(
            "--base-url", placeholder: "URL", help: "run against this server instead of an in-process mock")
        static let seedData = Option.value(
            "--seed-data", placeholder: "N", help: "sample posts in the in-process mock (default 20)")
        static let videoMib = Option.value(
            "--video-mib", placeholder: "N", help: "size of the uploaded sample video (default 4)")
    }

    static let spec = ArgumentSpec(
        command: name,
        summary: """
            Runs signup → login → upload a video (progress bar) → publish → first in the feed → paginate to the end \
            → tweets with authors, the session cookie sent back, a profile from the HTTP cache and the second video \
            download revalidated, over each transport, and prints each step's result, request count and time, and \
            the cache's hits and revalidations. By default it starts the mock server in-process with sample data.
            """,
        options: [Options.transport, Options.baseUrl, Options.seedData, Options.videoMib]
    )

    static func specs(in tool: CourierTool) -> [ArgumentSpec] { [spec] }

    static func run(_ arguments: [String], in tool: CourierTool) async throws -> Int32 {
        guard let parsed = try spec.parseUnlessHelp(arguments) else { return ExitStatus.success }
        let choice = parsed.value(Options.transport) ?? "both"
        let names: [String]
        switch choice {
        case "both": names = ["curl", "urlsession"]
        case "curl", "urlsession": names = [choice]
        default: throw UsageError("--transport takes curl, urlsession or both, not '\(choice)'")
        }
        let seed = try parsed.int(Options.seedData) ?? 20
        guard (0...SeedLimit.posts).contains(seed) else { throw UsageError(SeedLimit.message) }
        let mebibytes = try parsed.int(Options.videoMib) ?? 4
        guard (1...1024).contains(mebibytes) else { throw UsageError("--video-mib takes 1 to 1024") }

        var server: MockServer?
        var backend: SocialBackend?
        let baseURL: URL
        if let text = parsed.value(Options.baseUrl) {
            guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
                throw UsageError("--base-url takes an absolute URL, not '\(text)'")
            }
            baseURL = url
        } else {
            let social = try SocialBackend(seedCount: seed)
            let mock = MockServer(handlers: [social])
            try mock.start()
            (server, backend, baseURL) = (mock, social, mock.baseURL)
            say("mock server with \(seed) sample posts on \(baseURL.absoluteString)")
        }
        defer {
            server?.shutdown()
            backend?.removeStorage()
        }

        var passed = true
        for name in names {
            let transport: any Transport = name == "curl" ? CurlTransport() : URLSessionTransport()
            say("\n▶ \(name)")
            let runner = DemoRunner(
                transportName: name, transport: transport, baseURL: baseURL, videoBytes: mebibytes << 20,
                output: { text in FileHandle.standardOutput.write(Data(text.utf8)) })
            let report = await runner.run()
            await transport.shutdown()
            say(report.formatted)
            passed = passed && report.passed
        }
        say(passed ? "\ndemo: every step passed" : "\ndemo: a step FAILED")
        return passed ? ExitStatus.success : ExitStatus.failure
    }

    /// Writes a line to stdout unbuffered, so it interleaves correctly with the progress bar.
    static func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
