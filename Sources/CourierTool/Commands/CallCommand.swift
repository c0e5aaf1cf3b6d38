import Courier
import CourierContract
import CourierContractModel
import CourierCurl
import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `call ENDPOINT.CASE --arg value ...`: calls one declared operation and prints the JSON.
package enum CallCommand: Command {
    package static let name = "call"
    package static let summary = "call a declared operation and print the JSON ('call --list' lists them)"

    /// `call`'s own options; the client options (`--config`, `--transport`, `--retry`,
    /// `--no-retry`) are `ClientOptions`. Every other `--name value` is an endpoint argument.
    enum Options {
        static let list = Option.flag("--list", help: "list every endpoint case and its arguments")
        static let baseURL = Option.value(
            "--base-url", placeholder: "URL", help: "the API's base URL (default: courier.json's)")
        static let token = Option.value(
            "--token", placeholder: "TOKEN", help: "bearer token for calls that need one")
    }

    static let spec = ArgumentSpec(
        command: name,
        summary: "Calls one declared operation and prints the decoded JSON.",
        options: [Options.list, Options.baseURL, Options.token] + ClientOptions.all,
        positionals: ["ENDPOINT.CASE"],
        trailing: "[--ARG VALUE]..."
    )

    package static func specs(in tool: CourierTool) -> [ArgumentSpec] { [spec.named(tool.name)] }

    package static func run(_ arguments: [String], in tool: CourierTool) async throws -> Int32 {
        let spec = Self.spec.named(tool.name)
        let (own, endpointArguments) = try split(arguments)
        let parsed = try spec.parse(own)
        let operation = parsed.positionals.first.flatMap { id in tool.operations.first { $0.id == id } }
        if parsed.wantsHelp {
            if let operation {
                // `call ID --help`: that operation's arguments, each with its help.
                print(OperationCall.help(operation, program: "\(tool.name) \(name)"))
            } else {
                print(
                    spec.helpText + "\n\nendpoints (\(tool.name) call --list):\n"
                        + OperationCall.listing(tool.operations))
            }
            return ExitStatus.success
        }
        if parsed.has(Options.list) {
            print(OperationCall.listing(tool.operations))
            return ExitStatus.success
        }
        guard let id = parsed.positionals.first else {
            let example = tool.operations.first?.id ?? "group.name"
            throw UsageError(
                "name an operation, such as \(example) (\(tool.name) call --list shows them)")
        }
        guard let operation else {
            throw UsageError("unknown endpoint \(id); `\(tool.name) call --list` lists them")
        }
        let endpoint: OperationCall
        do {
            endpoint = try OperationCall(operation, arguments: endpointArguments)
        } catch let error as CourierError {
            throw UsageError(error.message)
        }
        var settings = try ClientSettings(parsed: parsed)
        if let text = parsed.value(Options.baseURL) {
            guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
                throw UsageError("--base-url takes an absolute URL, not '\(text)'")
            }
            settings.configuration.baseURL = url
        }
        guard settings.configuration.baseURL != nil else {
            throw UsageError("give --base-url or a baseURL in courier.json")
        }
        if let token = parsed.value(Options.token) {
            settings.configuration.defaultHeaders = settings.configuration.defaultHeaders.filter {
                $0.key.lowercased() != "authorization"
            }
            settings.configuration.defaultHeaders["Authorization"] = "Bearer \(token)"
        }
        let (manager, transport) = try settings.makeClient()
        do {
            let response = try await manager.sendRaw(endpoint)
            printJSON(response.value)
            await transport.shutdown()
            return ExitStatus.success
        } catch {
            await transport.shutdown()
            if let status = error.status {
                standardError("\(tool.name) call: \(id) answered \(status)\n")
                if let body = error.body { printJSON(body, to: FileHandle.standardError) }
                return ExitStatus.httpError
            }
            throw error
        }
    }

    /// Separates `call`'s own options from the endpoint's `--name value` arguments.
    /// - Throws: `UsageError` for an endpoint argument without a value.
    static func split(_ arguments: [String]) throws -> (own: [String], endpoint: [String: String]) {
        var own: [String] = []
        var endpoint: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            guard word.hasPrefix("--"), word.count > 2 else {
                own.append(word)
                continue
            }
            var name = String(word.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if let option = spec.option(named: "--" + name) {
                own.append(word)
                if option.takesValue, value == nil, index < arguments.count {
                    own.append(arguments[index])
                    index += 1
                }
                continue
            }
            if name == "help" {
                own.append(word)
                continue
            }
            if value == nil {
                guard index < arguments.count else { throw UsageError("--\(name) needs a value") }
                value = arguments[index]
                index += 1
            }
            endpoint[name] = value
        }
        return (own, endpoint)
    }

    /// Prints JSON pretty, or the text as it is when it is not JSON.
    static func printJSON(_ data: Data, to handle: FileHandle = .standardOutput) {
        if let value = try? JSONValue.parse(data), let pretty = try? value.prettyData() {
            handle.write(pretty + Data("\n".utf8))
        } else {
            handle.write(data + Data("\n".utf8))
        }
    }
}
