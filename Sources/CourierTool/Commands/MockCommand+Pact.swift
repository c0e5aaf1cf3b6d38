import CourierPact
import Foundation
import MockServer
import MockServerPact

extension MockCommand {
    /// `mock --pact-out FILE --consumer NAME [--provider NAME]`: the consumer's exchanges with the
    /// mock recorded as a pact, and merged into FILE when the server stops.
    struct PactOutput {
        enum Options {
            static let pactOut = Option.value(
                "--pact-out", placeholder: "FILE",
                help: "record every exchange as a pact and merge it into FILE when the server stops")
            static let consumer = Option.value(
                "--consumer", placeholder: "NAME", help: "with --pact-out: the consumer's name in the pact")
            static func provider(_ tool: CourierTool) -> Option {
                Option.value(
                    "--provider", placeholder: "NAME",
                    help: "with --pact-out: the provider's name in the pact (default \(tool.name))")
            }
            static func all(_ tool: CourierTool) -> [Option] { [pactOut, consumer, provider(tool)] }
        }

        let file: URL
        let recorder: PactRecorder

        /// The recording `parsed` asks for, or nil without `--pact-out`.
        ///
        /// The file is merged into once here (nothing recorded yet), so that a file holding another
        /// pair's pact, or one that cannot be written, is refused before the consumer's tests run.
        /// - Throws: `UsageError` for `--consumer` or `--provider` without `--pact-out` and the
        ///   reverse; `PactError` when the file cannot take this pair's pact.
        static func make(_ parsed: ParsedArguments, in tool: CourierTool) throws -> PactOutput? {
            let consumer = parsed.value(Options.consumer)
            let provider = parsed.value(Options.provider(tool))
            guard let path = parsed.value(Options.pactOut) else {
                if consumer != nil || provider != nil {
                    throw UsageError("--consumer and --provider go with --pact-out FILE")
                }
                return nil
            }
            guard !path.isEmpty else { throw UsageError("--pact-out takes a file path") }
            guard let consumer, !consumer.isEmpty else {
                throw UsageError("--pact-out needs --consumer NAME, the consumer's name in the pact")
            }
            guard provider?.isEmpty != true else { throw UsageError("--provider takes a non-empty name") }
            let recorder = PactRecorder(
                consumer: consumer, provider: provider ?? tool.name, operations: tool.operations)
            let file = URL(fileURLWithPath: path)
            try recorder.write(to: file)
            return PactOutput(file: file, recorder: recorder)
        }

        /// Makes the server report each exchange to the recorder, except requests to `setUpPaths`
        /// (a provider-state endpoint: a test's set-up, not an interaction of the contract).
        func observe(_ configuration: inout MockServerConfiguration, except setUpPaths: Set<String>) {
            let record = recorder.observer
            configuration.exchangeObserver = { request, response in
                if !setUpPaths.contains(request.path) { record(request, response) }
            }
        }

        /// Merges what was recorded into the file; returns the line to print.
        /// - Throws: `PactError` when the file cannot be written.
        func write(in tool: CourierTool) throws -> String {
            try recorder.write(to: file)
            let count = recorder.pact.interactions.count
            return "\(tool.name) mock: wrote \(count) interaction\(count == 1 ? "" : "s") to \(file.path)\n"
        }
    }
}
