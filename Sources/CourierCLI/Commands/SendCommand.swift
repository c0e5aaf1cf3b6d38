import Courier
import CourierCookies
import CourierCurl
import CourierInterceptors
import CourierTool
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `courier send`: one request through NetworkManager, like a small curl.
enum SendCommand: Command {
    static let name = "send"
    static let summary = "send one request and print the response body"

    /// `send`'s own options; the client options (`--config`, `--transport`, `--retry`,
    /// `--no-retry`) are `ClientOptions`.
    enum Options {
        static let header = Option.value(
            "--header", "-H", placeholder: "HEADER", help: "add a header, 'Name: value' (repeatable)",
            repeatable: true)
        static let json = Option.value(
            "--json", placeholder: "TEXT", help: "send TEXT as an application/json body (must be valid JSON)")
        static let data = Option.value(
            "--data", "-d", placeholder: "TEXT", help: "send TEXT as the body (@FILE reads a file)")
        static let form = Option.value(
            "--form", "-F", placeholder: "FIELD", help: "add a multipart text field name=value (repeatable)",
            repeatable: true)
        static let file = Option.value(
            "--file", placeholder: "PART",
            help: "add a multipart file part name=@path, streamed from disk (repeatable)",
            repeatable: true)
        static let user = Option.value(
            "--user", "-u", placeholder: "USER:PASS", help: "basic authentication user:password")
        static let timeout = Option.value(
            "--timeout", placeholder: "S",
            help: "whole-transfer deadline in seconds (default: courier.json's timeouts.total)")
        static let output = Option.value(
            "--output", "-o", placeholder: "FILE",
            help: "write the body to FILE (streamed) instead of stdout; a cut GET is resumed, not restarted"
        )
        static let maxBytes = Option.value(
            "--max-bytes", placeholder: "N",
            help: "largest response body kept in memory (default: courier.json's maxResponseBytes, 16 MiB)")
        static let cookieJar = Option.value(
            "--cookie-jar", "-c", placeholder: "FILE",
            help:
                "read cookies from FILE and save the ones received to it (default: kept for this command only)"
        )
        static let include = Option.flag("--include", "-i", help: "print the status line and headers first")
        static let fail = Option.flag("--fail", "-f", help: "exit 22 when the status is 400 or more")
        static let verbose = Option.flag(
            "--verbose", "-v",
            help:
                "print each attempt as a cURL command, the response head and the timings on stderr, secrets hidden"
        )
        static let noRedact = Option.flag("--no-redact", help: "with --verbose, show secrets as they are")
    }

    static let spec = ArgumentSpec(
        command: name,
        summary: "Sends one HTTP request through Courier's NetworkManager and prints the response body.",
        options: [
            Options.header, Options.json, Options.data, Options.form, Options.file, Options.user,
            Options.timeout, Options.output, Options.maxBytes, Options.cookieJar, Options.include,
            Options.fail, Options.verbose,
            Options.noRedact,
        ] + ClientOptions.all,
        positionals: ["METHOD", "URL"]
    )

    static func specs(in tool: CourierTool) -> [ArgumentSpec] { [spec] }

    static func run(_ arguments: [String], in tool: CourierTool) async throws -> Int32 {
        guard let parsed = try spec.parseUnlessHelp(arguments) else { return ExitStatus.success }
        guard parsed.positionals.count == 2 else {
            throw UsageError("send needs METHOD and URL (see 'courier send --help')")
        }
        let request = BuiltRequest(request: try SendRequestBuilder(parsed: parsed).build())
        let output = parsed.value(Options.output).map { URL(fileURLWithPath: $0) }
        var settings = try ClientSettings(parsed: parsed)
        if let maxBytes = try parsed.int(Options.maxBytes) {
            guard maxBytes > 0 else { throw UsageError("--max-bytes must be positive") }
            settings.configuration.maxResponseBytes = Int64(maxBytes)
        }
        if let timeout = try parsed.double(Options.timeout) {
            guard timeout > 0, timeout < 1e9 else {
                throw UsageError("--timeout must be a positive number of seconds")
            }
            settings.configuration.timeouts.total = .seconds(timeout)
        }
        let verbose = parsed.has(Options.verbose)
        if parsed.has(Options.noRedact), !verbose { throw UsageError("--no-redact only goes with --verbose") }
        let monitors: [any EventMonitor] =
            verbose ? [VerboseMonitor(redacting: !parsed.has(Options.noRedact))] : []
        // `send` prints whatever arrives: every status is a response, not an error.
        let jar = try parsed.value(Options.cookieJar).map { try CookieJar(file: URL(fileURLWithPath: $0)) }
        let (manager, transport) = try settings.makeClient(
            validation: Validation(acceptableStatusCodes: 100..<600), eventMonitors: monitors,
            cookieJar: jar ?? CookieJar())

        let response: Response<Data>
        do {
            if let output {
                // A download resumes what a cut attempt (or an earlier run) left in the file.
                response = try await manager.download(request, to: output).map { _ in Data() }
            } else {
                response = try await manager.sendRaw(request)
            }
        } catch {
            await transport.shutdown()
            standardError("courier send: \(error)\n")
            return ExitStatus.failure
        }
        await transport.shutdown()
        if parsed.has(Options.include) {
            var head = "\(response.httpVersion ?? "HTTP/1.1") \(response.status)\r\n"
            for field in response.headers { head += "\(field.name): \(field.value)\r\n" }
            FileHandle.standardOutput.write(Data((head + "\r\n").utf8))
        }
        switch response.body {
        case .data(let data): FileHandle.standardOutput.write(data)
        case .stream: break  // `send` reads every body whole
        case .file(let url, let count):
            if verbose { standardError("wrote \(count) bytes to \(url.path)\n") }
        }
        if verbose {
            standardError(TimingReport.render(response.timings, version: response.httpVersion) + "\n")
        }
        if parsed.has(Options.fail), response.status >= 400 { return ExitStatus.httpError }
        return ExitStatus.success
    }
}

/// `--verbose`: each attempt as a cURL command (the request as sent, with the configuration's
/// default headers), each response head as `< ` lines, and retries; secrets hidden unless
/// `redacting` is false.
struct VerboseMonitor: EventMonitor {
    var redacting: Bool

    func handle(_ event: NetworkEvent) {
        switch event {
        case .requestSent(let request, let attempt):
            if attempt > 1 { standardError("* attempt \(attempt)\n") }
            let command = CURLRendering.command(for: request, redacting: redacting)
            standardError(command + "\n")
        case .responseReceived(_, let response):
            var lines = ["< \(response.httpVersion ?? "HTTP/1.1") \(response.status)"]
            for field in response.headers {
                let hidden = redacting && Redaction.isSensitive(header: field.name)
                lines.append("< \(field.name): \(hidden ? Redaction.placeholder : field.value)")
            }
            standardError(lines.joined(separator: "\n") + "\n<\n")
        case .retrying(let attempt, let delay):
            standardError(
                "* retrying, attempt \(attempt) in \(String(format: "%.2f", delay.timeInterval)) s\n")
        case .failed:
            break
        }
    }
}

/// The request `send` built from its arguments, sent as it is: its body may stream from a file,
/// which a `URLRequest` cannot carry.
private struct BuiltRequest: URLRequestConvertible {
    let request: TransportRequest

    func makeRequest(baseURL: URL?) throws -> TransportRequest {
        var request = self.request
        if request.url.scheme == nil {
            request.url = try URL.joining(path: request.url.absoluteString, base: baseURL)
        }
        return request
    }
}
