import Courier
import CourierPact
import Foundation

extension VerifyCommand {
    /// `verify --pact FILE --base-url URL [--provider-states-url URL]`: a provider verified against a
    /// pact file, as Pact's verifier does, instead of against the declarations.
    enum PactMode {
        enum Options {
            static let pact = Option.value(
                "--pact", placeholder: "FILE",
                help:
                    "verify against this pact file (Pact Specification 4, 3 or 2) instead of the declarations"
            )
            static let providerStatesURL = Option.value(
                "--provider-states-url", placeholder: "URL",
                help: "with --pact: where each interaction's provider states are posted before it is replayed"
            )
            static let stateTeardown = Option.flag(
                "--state-teardown", help: "with --pact: also post each state with action teardown afterwards")
            static let all = [pact, providerStatesURL, stateTeardown]
        }

        /// Replays the pact at `file` against `baseURL`, prints Pact's report (each mismatch with its
        /// path, what was expected and what arrived), writes JUnit XML for `--junit FILE`, and returns
        /// the exit status: 0 when every interaction that is not pending passed, 1 when one failed, 65
        /// when the file is not a pact.
        /// - Throws: `UsageError` for `--token` (a pact's requests carry their own headers) or a bad
        ///   `--provider-states-url`; an error when the JUnit file cannot be written.
        static func run(
            file: String, parsed: ParsedArguments, baseURL: URL, settings: ClientSettings,
            in tool: CourierTool
        ) async throws -> Int32 {
            if parsed.value(VerifyCommand.Options.token) != nil {
                throw UsageError(
                    "--token does not go with --pact: a pact's requests carry their own headers, and its provider states set up what they need"
                )
            }
            let statesURL = try parsed.value(Options.providerStatesURL).map { text in
                guard let url = URL(string: text),
                    ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                    url.host != nil
                else {
                    throw UsageError(
                        "--provider-states-url takes an absolute http or https URL, not '\(text)'")
                }
                return url
            }
            let pact: Pact
            do {
                pact = try Pact(contentsOf: URL(fileURLWithPath: file))
            } catch {
                standardError("\(tool.name) verify: \(error)\n")
                return ExitStatus.dataError
            }
            // Interactions that change data are replayed only when asked, as the declarations' cases are.
            let allowUnsafe = parsed.has(VerifyCommand.Options.allowUnsafe)
            let unsafe = { (interaction: PactInteraction) in
                !allowUnsafe && !safeMethods.contains(interaction.request.method.uppercased())
            }
            var sent = pact
            sent.interactions = pact.interactions.filter { !unsafe($0) }
            let transport = try settings.configuration.makeTransport(choosingFrom: ClientSettings.transports)
            let verifier = PactVerifier(
                transport: transport, baseURL: baseURL, providerStatesURL: statesURL,
                teardownStates: parsed.has(Options.stateTeardown))
            let verification = await verifier.verify(sent)
            await transport.shutdown()
            let skipped = pact.interactions.filter(unsafe)
            var lines = [verification.report]
            if !skipped.isEmpty {
                lines.append(
                    "\(skipped.count) skipped: they change data (POST, PUT, PATCH, DELETE); --allow-unsafe replays them"
                )
                lines += skipped.map { "  \($0.request.method) \($0.request.path): \($0.description)" }
            }
            print(lines.joined(separator: "\n"))
            if let junit = parsed.value(VerifyCommand.Options.junit) {
                let report = VerificationReport(
                    cases: verification.results.map { testCase($0, pact: pact, baseURL: baseURL) }
                        + skipped.map { skippedCase($0, pact: pact, baseURL: baseURL) },
                    declarationProblems: [])
                try Data(report.junitXML(suiteName: "\(tool.name) verify --pact").utf8).write(
                    to: URL(fileURLWithPath: junit), options: .atomic)
            }
            return verification.passed ? ExitStatus.success : ExitStatus.failure
        }

        static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

        /// One interaction's result as a JUnit case: its mismatches in Pact's terms; a pending one
        /// that failed is skipped, since it does not fail the verification.
        static func testCase(_ result: PactVerification.Result, pact: Pact, baseURL: URL)
            -> VerificationReport.Case
        {
            var item = skippedCase(result.interaction, pact: pact, baseURL: baseURL)
            item.skipped = nil
            item.status = result.status
            item.violations = result.mismatches.map { mismatch in
                VerificationReport.Violation(
                    rule: mismatch.kind.rawValue, path: mismatch.path,
                    message: "\(mismatch.mismatch) (expected \(mismatch.expected), actual \(mismatch.actual))"
                )
            }
            if let error = result.error {
                item.violations.append(
                    VerificationReport.Violation(rule: "request", path: "request", message: error))
            }
            if result.interaction.pending, !result.passed {
                item.skipped =
                    "pending, so it does not fail the verification: "
                    + item.violations.map(\.description).joined(separator: "; ")
                item.violations = []
            }
            return item
        }

        static func skippedCase(_ interaction: PactInteraction, pact: Pact, baseURL: URL)
            -> VerificationReport.Case
        {
            var name = interaction.description
            for (index, state) in interaction.providerStates.enumerated() {
                name += (index == 0 ? " given " : " and ") + state.name
            }
            let base =
                baseURL.absoluteString.hasSuffix("/")
                ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
            let query = interaction.request.query.flatMap { name, values in values.map { "\(name)=\($0)" } }
            return VerificationReport.Case(
                operation: "\(pact.consumer)-\(pact.provider)", name: name,
                method: interaction.request.method,
                url: base + interaction.request.path
                    + (query.isEmpty ? "" : "?" + query.joined(separator: "&")),
                expected: [interaction.response.status], status: nil, violations: [],
                skipped: "\(interaction.request.method) changes data; --allow-unsafe replays it")
        }
    }
}
