import Foundation
import MockServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `courier mock`: runs the mock server in the foreground until SIGINT or SIGTERM.
enum MockCommand: Command {
    static let name = "mock"
    static let summary = "run the mock server: WireMock-style stubs, the social backend, chaos"

    static let spec = ArgumentSpec(
        command: name,
        summary:
            "Runs Courier's mock server in the foreground. The first line printed is 'listening on http://HOST:PORT'.",
        usage:
            "courier mock [--host 127.0.0.1] [--port 8080] [--mappings DIR] [--seed-data N] [--chaos RATE] [--chaos-seed N] [--max-body BYTES]",
        options: [
            .init(
                names: ["--host"], takesValue: true, help: "address to bind (default 127.0.0.1)",
                valueName: "HOST"),
            .init(
                names: ["--port"], takesValue: true, help: "port to bind; 0 picks a free one (default 8080)",
                valueName: "PORT"),
            .init(
                names: ["--mappings"], takesValue: true,
                help: "folder of WireMock mapping files (with __files/)", valueName: "DIR"),
            .init(
                names: ["--seed-data"], takesValue: true,
                help: "fill the social backend with N sample users, posts, tweets", valueName: "N"),
            .init(
                names: ["--chaos"], takesValue: true, help: "inject faults, 5xx and 429 at this rate, 0 to 1",
                valueName: "RATE"),
            .init(
                names: ["--chaos-seed"], takesValue: true, help: "seed for reproducible chaos", valueName: "N"
            ),
            .init(
                names: ["--max-body"], takesValue: true, help: "largest request body accepted, in bytes",
                valueName: "BYTES"),
            .init(
                names: ["--no-backend"], takesValue: false,
                help: "serve stubs only, without the social backend"),
        ]
    )

    static func run(_ arguments: [String]) async throws -> Int32 {
        guard let parsed = try spec.parseUnlessHelp(arguments) else { return ExitStatus.success }
        var configuration = MockServerConfiguration()
        configuration.host = parsed.value("--host") ?? "127.0.0.1"
        configuration.port = try parsed.int("--port") ?? 8080
        guard (0...65535).contains(configuration.port) else { throw UsageError("--port must be 0 to 65535") }
        if let directory = parsed.value("--mappings") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
                isDirectory.boolValue
            else { throw UsageError("--mappings: no folder at '\(directory)'") }
            configuration.mappingsDirectory = URL(fileURLWithPath: directory)
        }
        if let rate = try parsed.double("--chaos") {
            guard (0...1).contains(rate) else { throw UsageError("--chaos takes a rate from 0 to 1") }
            configuration.chaosRate = rate
        }
        if let seed = try parsed.int("--chaos-seed") {
            configuration.chaosSeed = UInt64(truncatingIfNeeded: seed)
        }
        if let maxBody = try parsed.int("--max-body") {
            guard maxBody > 0 else { throw UsageError("--max-body must be positive") }
            configuration.maxBodyBytes = Int64(maxBody)
        }
        let seedCount = try parsed.int("--seed-data") ?? 0
        guard seedCount >= 0 else { throw UsageError("--seed-data must not be negative") }

        let backend = parsed.has("--no-backend") ? nil : try SocialBackend(seedCount: seedCount)
        let handlers: [any HTTPHandler] = backend.map { [$0] } ?? []
        let server = MockServer(configuration: configuration, handlers: handlers)
        try server.start()
        // Written unbuffered: scripts read this line to learn the port.
        FileHandle.standardOutput.write(
            Data("listening on http://\(configuration.host):\(server.port)\n".utf8))
        await waitForTerminationSignal()
        server.shutdown()
        backend?.removeStorage()  // uploaded videos live in a temporary folder of the backend's
        FileHandle.standardError.write(Data("courier mock: stopped\n".utf8))
        return ExitStatus.success
    }
}

/// Suspends until SIGINT or SIGTERM arrives.
func waitForTerminationSignal() async {
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
