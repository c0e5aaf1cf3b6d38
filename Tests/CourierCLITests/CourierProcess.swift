import Foundation
import TestSupport

/// Runs the built `courier` executable and collects what it prints.
struct CourierProcess {
    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: String
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The `courier` binary next to the test bundle (`swift build --build-tests` builds both).
    static var executable: URL { Subprocess.built("courier") }

    /// The default time limit: a minute, three under a sanitizer, where the `courier` binary runs
    /// several times slower and shares two cores with the rest of the suite.
    static let defaultTimeout: TimeInterval =
        ProcessInfo.processInfo.environment["COURIER_SANITIZER"] == nil ? 60 : 180

    /// Runs `courier arguments…` to completion with a time limit.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = defaultTimeout
    ) async throws -> Output {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "COURIER_TRANSPORT")
        env.merge(environment) { $1 }
        let result = try await Subprocess.run(executable.path, arguments, environment: env, timeout: timeout)
        return Output(status: result.status, stdout: result.stdout, stderr: result.stderrText)
    }
}
