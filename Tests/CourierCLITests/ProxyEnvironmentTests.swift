import CourierTesting
import Foundation
import MockServer
import TestSupport
import Testing

/// How a `courier` process's CurlTransport follows the proxy variables of its environment,
/// which it reads when the transport is made: a process of its own for each case, because a
/// test must not change the environment of the process that runs the other tests.
@Suite("the proxy environment of a courier process", .blocksItsThread)
struct ProxyEnvironmentTests {
    private static let ok = ClosureHandler { _ in .text("ok", status: 200) }
    /// Every proxy variable libcurl reads, cleared, so that the machine's own settings play no part.
    private static let cleared = [
        "http_proxy": "", "https_proxy": "", "HTTPS_PROXY": "", "all_proxy": "", "ALL_PROXY": "",
        "no_proxy": "", "NO_PROXY": "",
    ]

    private func send(_ server: MockServer, config: String? = nil, environment: [String: String])
        async throws -> CourierProcess.Output
    {
        let arguments = ["send", "GET", "\(server.baseURL)/x", "--transport", "curl", "--no-retry"]
        return try await CourierProcess.run(
            arguments + (config.map { ["--config", $0] } ?? []),
            environment: Self.cleared.merging(environment) { $1 })
    }

    @Test func theEnvironmentsProxyCarriesARequestAndItsNoProxyBypassesIt() async throws {
        let proxy = try RecordingProxy()
        defer { proxy.stop() }
        try await withMockServer(handlers: [Self.ok]) { server in
            let through = try await send(server, environment: ["http_proxy": proxy.url])
            #expect(through.status == 0, "stderr: \(through.stderr)")
            #expect(proxy.entries.map(\.kind) == [.forward])
            let bypassed = try await send(
                server, environment: ["http_proxy": proxy.url, "no_proxy": "127.0.0.1,localhost"])
            #expect(bypassed.status == 0, "stderr: \(bypassed.stderr)")
            #expect(proxy.entries.count == 1, "no_proxy sends the request straight to the server")
        }
    }

    /// A proxy in courier.json is used for every host it does not exempt itself: the
    /// environment's `no_proxy` does not bypass it (ProxySettings: "the environment is ignored").
    @Test func aConfiguredProxyIsNotBypassedByTheEnvironmentsNoProxy() async throws {
        let proxy = try RecordingProxy()
        defer { proxy.stop() }
        let config = try temporaryConfiguration(#"{ "proxy": { "url": "\#(proxy.url)" } }"#)
        defer { try? FileManager.default.removeItem(atPath: config) }
        try await withMockServer(handlers: [Self.ok]) { server in
            let output = try await send(
                server, config: config, environment: ["no_proxy": "127.0.0.1,localhost", "NO_PROXY": "*"])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            #expect(proxy.entries.map(\.kind) == [.forward])
        }
    }
}
