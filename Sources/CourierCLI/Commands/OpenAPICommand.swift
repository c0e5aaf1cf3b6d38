import Endpoints
import Foundation

/// `courier openapi`: prints the social API's contract as an OpenAPI 3.1 document.
enum OpenAPICommand: Command {
    static let name = "openapi"
    static let summary = "print the social API's contract as an OpenAPI 3.1 JSON document"

    static let spec = ArgumentSpec(
        command: name,
        summary:
            "Prints the contract the Endpoints enums and the mock server's social backend share, as OpenAPI 3.1 JSON.",
        usage: "courier openapi [--server URL] [--output FILE]",
        options: [
            .init(
                names: ["--server"], takesValue: true, help: "list this URL under 'servers'", valueName: "URL"
            ),
            .init(
                names: ["--output", "-o"], takesValue: true, help: "write to FILE instead of stdout",
                valueName: "FILE"),
        ]
    )

    static func run(_ arguments: [String]) async throws -> Int32 {
        guard let parsed = try spec.parseUnlessHelp(arguments) else { return ExitStatus.success }
        var server: URL?
        if let text = parsed.value("--server") {
            guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
                throw UsageError("--server takes an absolute URL, not '\(text)'")
            }
            server = url
        }
        let data = try OpenAPIDocument.data(serverURL: server) + Data("\n".utf8)
        if let path = parsed.value("--output") {
            try data.write(to: URL(fileURLWithPath: path))
        } else {
            FileHandle.standardOutput.write(data)
        }
        return ExitStatus.success
    }
}
