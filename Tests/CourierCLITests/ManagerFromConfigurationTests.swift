import CourierConfiguration
import Foundation
import MockServer
import Synchronization
import TestSupport
import Testing

/// A server that answers 503 with `Retry-After: 1` to the first `failures` requests, then 200
/// with a JSON echo of the `X-Client` and `Authorization` headers; it counts the requests.
private final class FlakyServer: Sendable {
    let failures: Int
    let served = Mutex(0)
    /// When each request arrived.
    let arrivals = Mutex<[ContinuousClock.Instant]>([])

    init(failures: Int) { self.failures = failures }

    var handler: ClosureHandler {
        ClosureHandler { [self] request in
            arrivals.withLock { $0.append(.now) }
            let count = served.withLock { count in
                count += 1
                return count
            }
            if count <= failures {
                return ServerResponse(
                    status: 503, headers: ["Retry-After": "1", "Content-Type": "text/plain"],
                    body: .data(Data("busy".utf8)))
            }
            let echoed = [
                "client": request.headers["X-Client"] ?? "",
                "authorization": request.headers["Authorization"] ?? "",
            ]
            return .json(
                (try? JSONSerialization.data(withJSONObject: echoed, options: [.sortedKeys])) ?? Data())
        }
    }

    var count: Int { served.withLock { $0 } }
}

/// Writes `json` to a temporary `courier.json` and returns its path.
func temporaryConfiguration(_ json: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID()).json")
    try Data(json.utf8).write(to: url)
    return url.path
}

@Suite("send and call build their manager from courier.json", .blocksItsThread)
struct ManagerFromConfigurationTests {
    static let retryingConfiguration =
        #"{ "retry": { "maxAttempts": 3, "baseDelay": 0, "maxDelay": 2 }, "defaultHeaders": { "X-Client": "from-config" } }"#

    @Test(arguments: ["curl", "urlsession"])
    func sendRetriesAsTheConfigurationSays(transport: String) async throws {
        let config = try temporaryConfiguration(Self.retryingConfiguration)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let flaky = FlakyServer(failures: 1)
        try await withMockServer(handlers: [flaky.handler]) { server in
            let output = try await CourierProcess.run([
                "send", "GET", "\(server.baseURL)/item", "--config", config, "--transport", transport,
            ])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            #expect(flaky.count == 2, "the 503 must be retried once")
            let arrivals = flaky.arrivals.withLock { $0 }
            #expect(
                arrivals.count == 2 && arrivals[1] - arrivals[0] >= .seconds(1),
                "Retry-After: 1 must be honoured between the two requests")
            #expect(output.stdoutText == #"{"authorization":"","client":"from-config"}"#)
        }
    }

    @Test func noRetryOverridesTheConfiguration() async throws {
        let config = try temporaryConfiguration(Self.retryingConfiguration)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let flaky = FlakyServer(failures: 1)
        try await withMockServer(handlers: [flaky.handler]) { server in
            let output = try await CourierProcess.run([
                "send", "GET", "\(server.baseURL)/item", "--config", config, "--no-retry",
            ])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            #expect(output.stdoutText == "busy")
            #expect(flaky.count == 1)
        }
    }

    @Test func retryNOverridesTheConfiguration() async throws {
        let config = try temporaryConfiguration(#"{ "retry": { "maxAttempts": 1, "baseDelay": 0 } }"#)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let flaky = FlakyServer(failures: 2)
        try await withMockServer(handlers: [flaky.handler]) { server in
            let output = try await CourierProcess.run([
                "send", "GET", "\(server.baseURL)/item", "--config", config, "--retry", "2",
            ])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            #expect(flaky.count == 3, "--retry 2 means up to two retries after the first attempt")
            #expect(output.stdoutText.contains("\"client\""), "\(output.stdoutText)")
        }
    }

    @Test func callUsesDefaultHeadersAndRetryFromTheConfiguration() async throws {
        let config = try temporaryConfiguration(Self.retryingConfiguration)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let flaky = FlakyServer(failures: 1)
        try await withMockServer(handlers: [flaky.handler]) { server in
            let output = try await CourierProcess.run([
                "call", "onboarding.me", "--base-url", server.baseURL.absoluteString, "--config", config,
                "--token", "t0k",
            ])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            #expect(flaky.count == 2, "call must retry as courier.json says")
            let echoed = try JSONSerialization.jsonObject(with: output.stdout) as? [String: String]
            #expect(echoed == ["client": "from-config", "authorization": "Bearer t0k"])
        }
    }

    @Test func callNoRetryOverridesTheConfiguration() async throws {
        let config = try temporaryConfiguration(Self.retryingConfiguration)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let flaky = FlakyServer(failures: 1)
        try await withMockServer(handlers: [flaky.handler]) { server in
            let output = try await CourierProcess.run([
                "call", "onboarding.me", "--base-url", server.baseURL.absoluteString, "--config", config,
                "--no-retry",
            ])
            #expect(output.status == 22, "stderr: \(output.stderr)")
            #expect(flaky.count == 1)
        }
    }

    @Test(arguments: [
        (["--retry", "-1"], "--retry takes 0 to 99"),
        (["--retry", "x"], "--retry takes a whole number"),
        (["--retry", "2", "--no-retry"], "use --retry or --no-retry, not both"),
    ])
    func badRetryOptionsAreRefused(extra: [String], message: String) async throws {
        let output = try await CourierProcess.run(["send", "GET", "http://127.0.0.1:1/"] + extra)
        #expect(output.status == 64, "stderr: \(output.stderr)")
        #expect(output.stderr.contains(message), "stderr: \(output.stderr)")
    }
}
