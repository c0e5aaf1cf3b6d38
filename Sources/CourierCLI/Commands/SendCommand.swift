import Courier
import CourierCurl
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `courier send`: one request through NetworkManager, like a small curl.
enum SendCommand: Command {
    static let name = "send"
    static let summary = "send one request and print the response body"

    static let spec = ArgumentSpec(
        command: name,
        summary: "Sends one HTTP request through Courier's NetworkManager and prints the response body.",
        usage:
            "courier send METHOD URL [-H 'Name: value']... [--json TEXT | --data TEXT | --form name=value | --file name=@path]... [--user u:p] [--timeout S] [--transport urlsession|curl] [--output FILE] [--include] [--fail] [--verbose]",
        options: [
            .init(
                names: ["--header", "-H"], takesValue: true, help: "add a header, 'Name: value' (repeatable)",
                valueName: "HEADER"),
            .init(
                names: ["--json"], takesValue: true,
                help: "send TEXT as an application/json body (must be valid JSON)", valueName: "TEXT"),
            .init(
                names: ["--data", "-d"], takesValue: true, help: "send TEXT as the body (@FILE reads a file)",
                valueName: "TEXT"),
            .init(
                names: ["--form", "-F"], takesValue: true,
                help: "add a multipart text field name=value (repeatable)", valueName: "FIELD"),
            .init(
                names: ["--file"], takesValue: true,
                help: "add a multipart file part name=@path, streamed from disk (repeatable)",
                valueName: "PART"),
            .init(
                names: ["--user", "-u"], takesValue: true, help: "basic authentication user:password",
                valueName: "USER:PASS"),
            .init(names: ["--timeout"], takesValue: true, help: "total timeout in seconds", valueName: "S"),
            .init(
                names: ["--transport"], takesValue: true,
                help: "urlsession or curl (default: courier.json, $COURIER_TRANSPORT, then urlsession)",
                valueName: "NAME"),
            .init(
                names: ["--config"], takesValue: true,
                help: "configuration file (default ./courier.json when present)", valueName: "FILE"),
            .init(
                names: ["--output", "-o"], takesValue: true,
                help: "write the body to FILE (streamed) instead of stdout", valueName: "FILE"),
            .init(
                names: ["--max-bytes"], takesValue: true,
                help: "largest response body kept in memory (default 64 MiB)", valueName: "N"),
            .init(
                names: ["--include", "-i"], takesValue: false, help: "print the status line and headers first"
            ),
            .init(
                names: ["--fail", "-f"], takesValue: false, help: "exit 22 when the status is 400 or more"),
            .init(
                names: ["--verbose", "-v"], takesValue: false,
                help: "print the request as cURL and the timing breakdown on stderr"),
        ],
        positionals: ["METHOD", "URL"]
    )

    static func run(_ arguments: [String]) async throws -> Int32 {
        guard let parsed = try spec.parseUnlessHelp(arguments) else { return ExitStatus.success }
        guard parsed.positionals.count == 2 else {
            throw UsageError("send needs METHOD and URL (see 'courier send --help')")
        }
        let request = try SendRequestBuilder(parsed: parsed).build()
        var configuration = try TransportSettings(parsed: parsed).configuration
        configuration.maxResponseBytes = Int64(try parsed.int("--max-bytes") ?? 64 << 20)
        configuration.retry.maxAttempts = 1
        if let timeout = try parsed.double("--timeout") {
            guard timeout > 0 else { throw UsageError("--timeout must be positive") }
            configuration.timeouts.total = timeout
        }
        let transport = try TransportFactory.make(for: configuration)
        // `send` prints whatever arrives: every status is a response, not an error.
        let manager = NetworkManager(
            configuration: configuration, transport: transport,
            validation: Validation(acceptableStatusCodes: 100..<600))
        let verbose = parsed.has("--verbose")
        if verbose {
            standardError(
                "> \(request.urlRequest.httpMethod ?? "GET") \(request.urlRequest.url?.absoluteString ?? "")\n"
            )
        }

        let response: Response<Data>
        do {
            response = try await manager.sendRaw(request)
        } catch let error as CourierError {
            await TransportFactory.shutdown(transport)
            standardError("courier send: \(error)\n")
            return ExitStatus.failure
        }
        await TransportFactory.shutdown(transport)
        if parsed.has("--include") {
            var head = "\(response.httpVersion ?? "HTTP/1.1") \(response.status)\r\n"
            for field in response.headers { head += "\(field.name): \(field.value)\r\n" }
            FileHandle.standardOutput.write(Data((head + "\r\n").utf8))
        }
        switch response.body {
        case .data(let data): FileHandle.standardOutput.write(data)
        case .file(let url, let count):
            if verbose { standardError("wrote \(count) bytes to \(url.path)\n") }
        }
        if verbose {
            standardError(TimingReport.render(response.timings, version: response.httpVersion) + "\n")
        }
        if parsed.has("--fail"), response.status >= 400 { return ExitStatus.httpError }
        return ExitStatus.success
    }
}

func standardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}
