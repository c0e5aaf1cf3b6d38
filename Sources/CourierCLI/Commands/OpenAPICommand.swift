import Courier
import CourierContract
import Endpoints
import Foundation

/// `courier openapi`: prints the social API's contract as an OpenAPI 3.1 document.
enum OpenAPICommand: Command {
    static let name = "openapi"
    static let summary = "print the social API's contract as an OpenAPI 3.1 JSON document"

    enum Options {
        static let server = Option.value(
            "--server", placeholder: "URL", help: "list this URL under 'servers'")
        static let output = Option.value(
            "--output", "-o", placeholder: "FILE", help: "write to FILE instead of stdout")
    }

    static let spec = ArgumentSpec(
        command: name,
        summary:
            "Prints the contract the Endpoints enums and the mock server's social backend share, as OpenAPI 3.1 JSON.",
        options: [Options.server, Options.output]
    )

    static var specs: [ArgumentSpec] { [spec] }

    static func run(_ arguments: [String]) async throws -> Int32 {
        guard let parsed = try spec.parseUnlessHelp(arguments) else { return ExitStatus.success }
        var server: URL?
        if let text = parsed.value(Options.server) {
            guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
                throw UsageError("--server takes an absolute URL, not '\(text)'")
            }
            server = url
        }
        let data = try SocialAPI.openAPI(serverURL: server).prettyData() + Data("\n".utf8)
        if let path = parsed.value(Options.output) {
            try data.write(to: URL(fileURLWithPath: path))
        } else {
            FileHandle.standardOutput.write(data)
        }
        return ExitStatus.success
    }
}
