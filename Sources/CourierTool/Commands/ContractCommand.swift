import CourierContract
import CourierContractModel
import CourierOpenAPI
import Foundation

/// `contract diff DOCUMENT`: what the tool's declared APIs rely on that a provider's OpenAPI document
/// does not promise.
package enum ContractCommand: Command {
    package static let name = "contract"
    package static let summary = "compare the APIs with a provider's OpenAPI document (contract diff)"

    enum Options {
        static let json = Option.flag("--json", help: "print the report as JSON")
        static let client = Option.value(
            "--client", placeholder: "FILE",
            help: "compare this document (JSON or YAML) instead of the declarations' own")
    }

    package static func diffSpec(in tool: CourierTool) -> ArgumentSpec {
        ArgumentSpec(
            program: tool.name, command: "contract diff",
            summary:
                "Compares the declarations' OpenAPI document (what `openapi` prints) with a provider's (JSON or YAML): lists what the client relies on that the provider does not promise, then what is new and harmless. Exits 1 when a change breaks the client, 65 when the document cannot be read.",
            options: [Options.client, Options.json], positionals: ["DOCUMENT"])
    }

    package static func specs(in tool: CourierTool) -> [ArgumentSpec] { [diffSpec(in: tool)] }

    package static func run(_ arguments: [String], in tool: CourierTool) async throws -> Int32 {
        guard arguments.first == "diff" else {
            print(specs(in: tool).map(\.helpText).joined(separator: "\n\n"))
            return arguments.contains("--help") || arguments.contains("-h")
                ? ExitStatus.success : ExitStatus.usage
        }
        guard let parsed = try diffSpec(in: tool).parseUnlessHelp(Array(arguments.dropFirst())) else {
            return ExitStatus.success
        }
        guard let path = parsed.positionals.first else { throw UsageError("contract diff needs DOCUMENT") }
        let diff: ContractDiff
        do {
            let provider = try readDocument(path, for: "\(tool.name) contract diff")
            let client: OpenAPIDocument
            if let file = parsed.value(Options.client) {
                client = try readDocument(file, for: "\(tool.name) contract diff")
            } else {
                let ours = CourierContractModel.OpenAPIWriter.make(
                    title: tool.title, description: tool.documentDescription, operations: tool.operations)
                client = try OpenAPIDocument.parse(
                    ours.prettyData(), url: URL(fileURLWithPath: "\(tool.name)-openapi.json"))
            }
            diff = try ContractDiff.compare(client: client, provider: provider)
        } catch {
            standardError("\(tool.name) contract diff: \(error)\n")
            return ExitStatus.dataError
        }
        let output = parsed.has(Options.json) ? diff.json.serialized(pretty: true) : Data(diff.text.utf8)
        FileHandle.standardOutput.write(output + Data("\n".utf8))
        return diff.isBreaking ? ExitStatus.failure : ExitStatus.success
    }
}
