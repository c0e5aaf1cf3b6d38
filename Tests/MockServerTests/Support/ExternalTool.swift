import Foundation
import TestSupport

/// Runs a command-line tool from the test machine and captures its output.
enum ExternalTool {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The full path of `name` on PATH (or common system folders), if installed.
    static func find(_ name: String) -> String? { Subprocess.find(name) }

    /// Runs `executable` with `arguments` and waits (up to `timeout` seconds, then it is killed).
    static func run(_ executable: String, _ arguments: [String], timeout: Double = 30) async throws -> Output
    {
        let result = try await Subprocess.run(executable, arguments, timeout: timeout)
        return Output(status: result.status, stdout: result.stdoutText, stderr: result.stderrText)
    }

    /// Runs a quick probe synchronously, for traits that decide whether a test runs.
    static func probe(_ executable: String, _ arguments: [String], timeout: Double = 30) -> Int32? {
        (try? Subprocess.run(executable, arguments, timeout: timeout))?.status
    }
}
