import Courier
import CourierCurl
import CourierPrimitives
import Foundation
import MockServer
import MockServerContract
import MockServerOpenAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `mock`: runs the mock server in the foreground until SIGINT or SIGTERM.
package enum MockCommand: Command {
    package static let name = "mock"
    package static let summary =
        "run the mock server: the APIs' routing and validation, WireMock-style stubs, chaos"

    enum Options {
        static let host = Option.value(
            "--host", placeholder: "HOST", help: "address to bind (default 127.0.0.1)")
        static let port = Option.value(
            "--port", placeholder: "PORT", help: "port to bind; 0 picks a free one (default 8080)")
        static let mappings = Option.value(
            "--mappings", placeholder: "DIR", help: "folder of WireMock mapping files (with __files/)")
        static let chaos = Option.value(
            "--chaos", placeholder: "RATE", help: "inject faults, 5xx and 429 at this rate, 0 to 1")
        static let chaosSeed = Option.value(
            "--chaos-seed", placeholder: "N", help: "seed for reproducible chaos")
        static let openAPI = Option.value(
            "--openapi", placeholder: "FILE",
            help: "serve this OpenAPI 3.0 or 3.1 document (JSON or YAML) instead of the declared APIs")
        static let har = Option.value(
            "--har", placeholder: "FILE",
            help:
                "serve the exchanges of this HAR 1.2 file (a browser's, Charles', mitmproxy's export) as stubs"
        )
        static let seed = Option.value(
            "--seed", placeholder: "N", help: "with --openapi: seed of the generated answers (default 0)")
        static let stateful = Option.flag(
            "--stateful",
            help:
                "with --openapi: keep resources; POST creates, GET reads back, PUT and PATCH change, DELETE removes"
        )
        static let credentials = Option.value(
            "--credentials", placeholder: "KIND=VALUE",
            help:
                "with --openapi: the only credentials taken, bearer=TOKEN, basic=USER:PASSWORD or apiKey=NAME:VALUE (default: any of the right form)",
            repeatable: true)
        static let undeclaredRefusals = Option.value(
            "--undeclared-refusals", placeholder: "MODE",
            help:
                "with --openapi: how an operation without a declared 4xx refuses: standard (400/401/415/422, the default), a status, or accept"
        )
        static let maxBody = Option.value(
            "--max-body", placeholder: "BYTES", help: "largest request body accepted, in bytes")
        static func noBackend(_ backend: MockBackend) -> Option {
            Option.flag("--no-backend", help: "serve stubs only, without \(backend.description)")
        }
        static let globalTemplating = Option.flag(
            "--global-response-templating",
            help:
                "render every stub's response as a template, not only those with the response-template transformer"
        )
        static let proxyAll = Option.value(
            "--proxy-all", placeholder: "URL",
            help: "forward requests no stub matches to this http(s) base URL")
        static let record = Option.flag(
            "--record",
            help:
                "with --proxy-all: forward every request and, on exit, save what came back as stubs to --mappings (or ./mappings)"
        )
    }

    static func spec(in tool: CourierTool) -> ArgumentSpec {
        ArgumentSpec(
            program: tool.name, command: name,
            summary:
                "Runs Courier's mock server in the foreground, serving the declared APIs. The first line printed is 'listening on http://HOST:PORT'.",
            options: [
                Options.host, Options.port, Options.mappings, Options.har, Options.openAPI, Options.seed,
                Options.stateful, Options.credentials, Options.undeclaredRefusals,
            ]
                + tool.backend.options + [
                    Options.chaos, Options.chaosSeed, Options.maxBody, Options.noBackend(tool.backend),
                    Options.globalTemplating, Options.proxyAll, Options.record,
                ] + PactOutput.Options.all(tool))
    }

    package static func specs(in tool: CourierTool) -> [ArgumentSpec] { [spec(in: tool)] }

    /// The handler serving `--openapi FILE`, loaded (and refused with each problem's pointer) before
    /// the server starts.
    static func openAPIHandler(_ parsed: ParsedArguments) throws -> OpenAPIHandler? {
        let seed = try parsed.int(Options.seed)
        guard let file = parsed.value(Options.openAPI) else {
            for (given, name) in [
                (seed != nil, "--seed"), (parsed.has(Options.stateful), "--stateful"),
                (!parsed.all(Options.credentials).isEmpty, "--credentials"),
                (parsed.value(Options.undeclaredRefusals) != nil, "--undeclared-refusals"),
            ] where given {
                throw UsageError("\(name) needs --openapi FILE")
            }
            return nil
        }
        var options = OpenAPIMockOptions()
        options.stateful = parsed.has(Options.stateful)
        for text in parsed.all(Options.credentials) {
            do {
                options.credentials.append(try MockCredential(parsing: text))
            } catch {
                throw UsageError("--credentials: \(error)")
            }
        }
        if let mode = parsed.value(Options.undeclaredRefusals) {
            guard let refusals = UndeclaredRefusal(parsing: mode) else {
                throw UsageError("--undeclared-refusals takes standard, accept or a status from 400 to 599")
            }
            options.undeclaredRefusals = refusals
        }
        return OpenAPIHandler(
            document: try readDocument(file, for: "mock --openapi"),
            seed: UInt64(truncatingIfNeeded: seed ?? 0), options: options)
    }

    package static func run(_ arguments: [String], in tool: CourierTool) async throws -> Int32 {
        guard let parsed = try spec(in: tool).parseUnlessHelp(arguments) else { return ExitStatus.success }
        var configuration = MockServerConfiguration()
        configuration.host = parsed.value(Options.host) ?? "127.0.0.1"
        configuration.port = try parsed.int(Options.port) ?? 8080
        guard (0...65535).contains(configuration.port) else { throw UsageError("--port must be 0 to 65535") }
        if let directory = parsed.value(Options.mappings) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
                isDirectory.boolValue
            else { throw UsageError("--mappings: no folder at '\(directory)'") }
            configuration.mappingsDirectory = URL(fileURLWithPath: directory)
        }
        if let rate = try parsed.double(Options.chaos) {
            guard (0...1).contains(rate) else { throw UsageError("--chaos takes a rate from 0 to 1") }
            configuration.chaosRate = rate
        }
        if let seed = try parsed.int(Options.chaosSeed) {
            configuration.chaosSeed = UInt64(truncatingIfNeeded: seed)
        }
        if let maxBody = try parsed.int(Options.maxBody) {
            guard maxBody > 0 else { throw UsageError("--max-body must be positive") }
            configuration.maxBodyBytes = Int64(maxBody)
        }
        configuration.globalResponseTemplating = parsed.has(Options.globalTemplating)
        var proxyTarget: URL?
        if let text = parsed.value(Options.proxyAll) {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil
            else {
                throw UsageError("--proxy-all takes an http or https URL, such as https://api.example.com")
            }
            proxyTarget = url
        }
        let record = parsed.has(Options.record)
        if record {
            guard proxyTarget != nil else { throw UsageError("--record needs --proxy-all URL") }
            if configuration.mappingsDirectory == nil {
                let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
                try FileManager.default.createDirectory(
                    at: here.appendingPathComponent("mappings"), withIntermediateDirectories: true)
                configuration.mappingsDirectory = here
            }
        }
        // Proxied and recorded requests go out through libcurl (HTTPS upstreams with libcurl's trust store).
        let curl = CurlTransport()
        configuration.proxyClient = TransportProxyClient(
            transport: curl, maxResponseBytes: configuration.maxBodyBytes)
        let pact = try PactOutput.make(parsed, in: tool)
        let document = try openAPIHandler(parsed)
        let served = parsed.has(Options.noBackend(tool.backend)) || document != nil
        let backend = served ? nil : try tool.backend.make(parsed)
        pact?.observe(&configuration, except: backend?.setUpPaths ?? [])
        let har = try parsed.value(Options.har).map { file in
            do {
                return try JSONValue.object(
                    ["mappings": .array(HAR.mappings(fromHAR: Data(contentsOf: URL(fileURLWithPath: file))))]
                ).serialized()
            } catch {
                throw UsageError("--har: \(file): \(error)")
            }
        }
        let server = MockServer(
            configuration: configuration, handlers: document.map { [$0] } ?? backend?.handlers ?? [])
        try server.start()
        if let har { try server.addStubs(json: har) }
        if let proxyTarget {
            if record {
                try server.startRecording(targetBaseURL: proxyTarget)
            } else {
                // The lowest priority: every stub wins over it.
                let catchAll: [String: Any] = [
                    "priority": 1_000_000, "request": ["method": "ANY"],
                    "response": ["proxyBaseUrl": proxyTarget.absoluteString],
                ]
                try server.addStubs(json: try JSONSerialization.data(withJSONObject: catchAll))
            }
        }
        // An operation declared but without a sample is not served: say so where it is seen.
        for warning in startupWarnings(tool) { standardError(warning + "\n") }
        // Written unbuffered: scripts read this line to learn the port.
        FileHandle.standardOutput.write(
            Data("listening on http://\(configuration.host):\(server.port)\n".utf8))
        // Until SIGINT/SIGTERM or `POST /__admin/shutdown`.
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await waitForTerminationSignal() }
            group.addTask { await server.waitUntilStopped() }
            await group.next()
            group.cancelAll()
        }
        if record {
            let ids = try server.stopRecording()
            let folder = configuration.mappingsDirectory?.path ?? "."
            standardError("\(tool.name) mock: recorded \(ids.count) stubs to \(folder)\n")
        }
        server.shutdown()
        // After the server has stopped, so that every answered exchange is in the pact.
        let written = Result { try pact.map { try $0.write(in: tool) } }
        await curl.shutdown()
        backend?.stop()
        if let line = try written.get() { standardError(line) }
        standardError("\(tool.name) mock: stopped\n")
        return ExitStatus.success
    }
}

extension MockCommand {
    /// What `mock` prints on stderr when it starts: each problem with the declarations (an
    /// operation declared but without a sample, which it does not serve).
    package static func startupWarnings(_ tool: CourierTool) -> [String] {
        tool.declarationProblems.map { "\(tool.name) mock: warning: \($0)" }
    }
}

/// Suspends until SIGINT or SIGTERM arrives.
package func waitForTerminationSignal() async {
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let (stream, continuation) = AsyncStream<Int32>.makeStream()
    let sources = [SIGINT, SIGTERM].map { signalNumber in
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler { continuation.yield(signalNumber) }
        source.resume()
        return source
    }
    for await _ in stream { break }
    sources.forEach { $0.cancel() }
}

/// The mock server's outgoing requests (proxying, recording) through a Courier transport.
struct TransportProxyClient: ProxyClient {
    let transport: any Transport
    /// The largest upstream body taken: as large as a request body the server takes, rather
    /// than the 16 MiB a `TransferOptions` allows by default.
    var maxResponseBytes: Int64 = 64 << 20

    func send(_ request: ProxyRequest) async throws -> ProxyResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.addValue(value, forHTTPHeaderField: name) }
        let options = TransferOptions(
            maxResponseBytes: maxResponseBytes, totalTimeout: request.timeout, maxRedirects: 0)
        let response = try await transport.send(
            TransportRequest(
                urlRequest: urlRequest, body: request.body.isEmpty ? .empty : .data(request.body),
                options: options))
        return ProxyResponse(
            status: response.status, headers: response.headers.map { ($0.name, $0.value) },
            body: response.body.data)
    }
}
