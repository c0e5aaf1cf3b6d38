import Courier
import CourierContract
import CourierOpenAPI
import Foundation

/// `verify --base-url URL`: checks a live server against the declared APIs, or against an OpenAPI
/// document with `--openapi FILE`.
package enum VerifyCommand: Command {
    package static let name = "verify"
    package static let summary = "check a live server against the declarations (exit 1 on any violation)"

    enum Options {
        static let baseURL = Option.value(
            "--base-url", placeholder: "URL", help: "the server to check (default: courier.json's baseURL)")
        static let token = Option.value(
            "--token", placeholder: "TOKEN",
            help: "bearer token for operations that need one (default: $COURIER_TOKEN)")
        static let allowUnsafe = Option.flag(
            "--allow-unsafe",
            help:
                "also send POST, PUT, PATCH and DELETE, which may change the server's data (skipped otherwise)"
        )
        static let strict = Option.flag(
            "--strict", help: "also report response properties the declaration does not list")
        static let junit = Option.value(
            "--junit", placeholder: "FILE", help: "write the results as JUnit XML, one test case per request")
        static let openAPI = Option.value(
            "--openapi", placeholder: "FILE",
            help: "check against this OpenAPI 3.0 or 3.1 document (JSON or YAML) instead of the declared APIs"
        )
    }

    static func spec(in tool: CourierTool) -> ArgumentSpec {
        ArgumentSpec(
            program: tool.name, command: name,
            summary: """
                Sends every operation's sample, and requests made from the declarations (bounds, absent optionals, \
                no token, an unknown id, a bad body or parameter), to a live server, and reports every way an answer \
                breaks the declaration: status, content type, missing or null required fields, types, enum values, \
                formats, lengths and bounds, each with its request and JSON path. With --openapi FILE, the same cases \
                are made from the document (its examples, else values generated from its schemas) and each answer is \
                checked against it. With --pact FILE, replays a pact's \
                interactions instead, as Pact's verifier does, and reports each mismatch with its path, what was \
                expected and what arrived. Exit status 0 when clean, 1 on any violation, 64 on a usage mistake, 65 \
                when the pact cannot be read.
                """,
            options: [
                Options.baseURL, Options.token, Options.allowUnsafe, Options.strict, Options.junit,
                Options.openAPI,
                ClientOptions.transport, ClientOptions.config,
            ] + PactMode.Options.all)
    }

    package static func specs(in tool: CourierTool) -> [ArgumentSpec] { [spec(in: tool)] }

    package static func run(_ arguments: [String], in tool: CourierTool) async throws -> Int32 {
        try await run(arguments, in: tool, environment: ProcessInfo.processInfo.environment)
    }

    static func run(_ arguments: [String], in tool: CourierTool, environment: [String: String]) async throws
        -> Int32
    {
        guard let parsed = try spec(in: tool).parseUnlessHelp(arguments) else { return ExitStatus.success }
        let settings = try ClientSettings(parsed: parsed, environment: environment)
        var baseURL = settings.configuration.baseURL
        if let text = parsed.value(Options.baseURL) {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil
            else { throw UsageError("--base-url takes an absolute http or https URL, not '\(text)'") }
            baseURL = url
        }
        guard let baseURL else { throw UsageError("give --base-url or a baseURL in courier.json") }
        if let file = parsed.value(PactMode.Options.pact) {
            guard parsed.value(Options.openAPI) == nil else {
                throw UsageError("give --pact FILE or --openapi FILE")
            }
            return try await PactMode.run(
                file: file, parsed: parsed, baseURL: baseURL, settings: settings, in: tool)
        }
        guard parsed.value(PactMode.Options.providerStatesURL) == nil,
            !parsed.has(PactMode.Options.stateTeardown)
        else { throw UsageError("--provider-states-url and --state-teardown go with --pact FILE") }
        let token =
            parsed.value(Options.token) ?? environment["COURIER_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        let report: VerificationReport
        if let file = parsed.value(Options.openAPI) {
            guard !parsed.has(Options.strict) else {
                throw UsageError(
                    "--strict goes with the declarations; a document says additionalProperties itself")
            }
            let document: OpenAPIDocument
            do {
                document = try readDocument(file, for: "\(tool.name) verify")
            } catch {
                standardError("\(tool.name) verify: \(error)\n")
                return ExitStatus.dataError
            }
            let verification = DocumentVerification(
                document: document, token: token, allowUnsafe: parsed.has(Options.allowUnsafe))
            let transport = try settings.configuration.makeTransport(choosingFrom: ClientSettings.transports)
            report = await verification.run(against: baseURL, transport: transport)
            await transport.shutdown()
        } else {
            var verification = ProviderVerification(
                samples: tool.samples, token: token, allowUnsafe: parsed.has(Options.allowUnsafe))
            verification.declarationProblems = tool.declarationProblems
            verification.reportsUndeclaredProperties = parsed.has(Options.strict)
            let transport = try settings.configuration.makeTransport(choosingFrom: ClientSettings.transports)
            report = await verification.run(against: baseURL, transport: transport)
            await transport.shutdown()
        }
        print(report.summary)
        if let path = parsed.value(Options.junit) {
            try Data(report.junitXML(suiteName: "\(tool.name) verify").utf8).write(
                to: URL(fileURLWithPath: path), options: .atomic)
        }
        return report.isClean ? ExitStatus.success : ExitStatus.failure
    }
}
