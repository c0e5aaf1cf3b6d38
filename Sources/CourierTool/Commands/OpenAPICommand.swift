import Courier
import CourierContract
import CourierContractModel
import Foundation

/// `openapi`: prints the tool's APIs as an OpenAPI 3.1 document.
package enum OpenAPICommand: Command {
    package static let name = "openapi"
    package static let summary = "print the APIs' contract as an OpenAPI 3.1 JSON document"

    enum Options {
        static let server = Option.value(
            "--server", placeholder: "URL", help: "list this URL under 'servers'")
        static let output = Option.value(
            "--output", "-o", placeholder: "FILE", help: "write to FILE instead of stdout")
    }

    package static func spec(in tool: CourierTool) -> ArgumentSpec {
        ArgumentSpec(
            program: tool.name, command: name,
            summary:
                "Prints the contract the declarations state (the one `mock` serves and `verify` checks), as OpenAPI 3.1 JSON.",
            options: [Options.server, Options.output])
    }

    package static func specs(in tool: CourierTool) -> [ArgumentSpec] { [spec(in: tool)] }

    package static func run(_ arguments: [String], in tool: CourierTool) async throws -> Int32 {
        guard let parsed = try spec(in: tool).parseUnlessHelp(arguments) else { return ExitStatus.success }
        var server: URL?
        if let text = parsed.value(Options.server) {
            guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
                throw UsageError("--server takes an absolute URL, not '\(text)'")
            }
            server = url
        }
        let document = OpenAPIWriter.make(
            title: tool.title, description: tool.documentDescription, operations: tool.operations,
            serverURL: server)
        let data = try document.prettyData() + Data("\n".utf8)
        if let path = parsed.value(Options.output) {
            try data.write(to: URL(fileURLWithPath: path))
        } else {
            FileHandle.standardOutput.write(data)
        }
        return ExitStatus.success
    }
}
