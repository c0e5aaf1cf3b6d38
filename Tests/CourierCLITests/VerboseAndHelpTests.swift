import CourierTool
import Foundation
import MockServer
import TestSupport
import Testing

@testable import CourierCLI

/// Answers with a secret cookie and a plain header.
private let cookieServer = ClosureHandler { _ in
    ServerResponse(
        status: 200,
        headers: ["Set-Cookie": "session=s3cr3t", "X-Plain": "visible", "Content-Type": "text/plain"],
        body: .data(Data("ok".utf8)))
}

@Suite("courier send --verbose", .blocksItsThread)
struct VerboseTests {
    @Test func verbosePrintsTheRedactedCURLCommandAndTheResponseHead() async throws {
        try await withMockServer(handlers: [cookieServer]) { server in
            let output = try await CourierProcess.run([
                "send", "POST", "\(server.baseURL)/v?token=abc&q=1", "-H", "X-Api-Key: k3y", "--json",
                #"{"password":"hunter2","name":"ann"}"#, "--verbose",
            ])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            let text = output.stderr
            #expect(text.contains("curl \\\n"), "\(text)")
            #expect(text.contains("-X POST"), "\(text)")
            #expect(text.contains("'\(server.baseURL)/v?token=<redacted>&q=1'"), "\(text)")
            #expect(text.contains("-H 'X-Api-Key: <redacted>'"), "\(text)")
            #expect(text.contains(#""password":"<redacted>""#), "\(text)")
            #expect(text.contains("< HTTP/1.1 200"), "\(text)")
            #expect(text.contains("< Set-Cookie: <redacted>"), "\(text)")
            #expect(text.contains("< X-Plain: visible"), "\(text)")
            for secret in ["abc", "k3y", "hunter2", "s3cr3t"] {
                #expect(!text.contains(secret), "--verbose shows \(secret): \(text)")
            }
            #expect(output.stdoutText == "ok")
        }
    }

    @Test func noRedactShowsSecretsOnRequest() async throws {
        try await withMockServer(handlers: [cookieServer]) { server in
            let output = try await CourierProcess.run([
                "send", "GET", "\(server.baseURL)/v?token=abc", "-H", "X-Api-Key: k3y", "--verbose",
                "--no-redact",
            ])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            let text = output.stderr
            #expect(text.contains("'\(server.baseURL)/v?token=abc'"), "\(text)")
            #expect(text.contains("-H 'X-Api-Key: k3y'"), "\(text)")
            #expect(text.contains("< Set-Cookie: session=s3cr3t"), "\(text)")
        }
    }
}

/// Every spec every command declares, with the words that print its `--help`.
private let declaredSpecs: [(arguments: [String], spec: ArgumentSpec)] = CourierTool.courier.commands.flatMap
{
    command in
    command.specs(in: .courier).map {
        (arguments: $0.command.split(separator: " ").map(String.init), spec: $0)
    }
}

@Suite("usage text comes from the option declarations", .blocksItsThread)
struct HelpTests {
    @Test func everyCommandDeclaresItsOptions() {
        for command in CourierTool.courier.commands {
            #expect(!command.specs(in: .courier).isEmpty, "\(command.name) declares no spec")
            #expect(command.specs(in: .courier).allSatisfy { $0.command.hasPrefix(command.name) })
        }
        #expect(declaredSpecs.count >= 7)
    }

    @Test func readmeShowsTheGeneratedUsageLines() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../README.md").standardizedFileURL,
            encoding: .utf8)
        for (_, spec) in declaredSpecs {
            #expect(readme.contains("\n" + spec.usage + "\n"), "README lacks: \(spec.usage)")
        }
    }

    @Test(arguments: declaredSpecs.indices)
    func everyDeclaredOptionAppearsInHelpAndUsage(index: Int) async throws {
        let (arguments, spec) = declaredSpecs[index]
        let output = try await CourierProcess.run(arguments + ["--help"])
        #expect(output.status == 0, "\(arguments): \(output.stderr)")
        let help = output.stdoutText
        let usage = try #require(
            help.split(separator: "\n").first {
                $0.hasPrefix("usage: courier \(arguments.joined(separator: " "))")
            },
            "\(arguments): no usage line in \(help)")
        for option in spec.options {
            for name in option.names {
                #expect(help.contains(name), "\(arguments): --help does not list \(name)")
            }
            #expect(
                usage.contains("[" + option.names[0]) || usage.contains(" " + option.names[0] + " "),
                "\(arguments): usage line omits \(option.names[0]): \(usage)")
        }
    }

    @Test(arguments: [
        (["demo", "--bogus"], "unknown option '--bogus' for 'demo'"),
        (["mock", "--bogus"], "unknown option '--bogus' for 'mock'"),
        (["send", "GET", "http://x/", "--bogus"], "unknown option '--bogus' for 'send'"),
        (["openapi", "--bogus"], "unknown option '--bogus' for 'openapi'"),
        (["bench", "run", "--bogus"], "unknown option '--bogus' for 'bench run'"),
        (["bench", "fixtures", "--bogus"], "unknown option '--bogus' for 'bench fixtures'"),
        (["call", "onboarding.me", "--bogus", "1"], "onboarding.me takes no --bogus"),
    ])
    func unknownOptionsAreRefused(arguments: [String], message: String) async throws {
        let output = try await CourierProcess.run(arguments)
        #expect(output.status == 64, "\(arguments): \(output.stderr)")
        #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
    }
}
