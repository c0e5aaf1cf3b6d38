import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the `notes-tool` executable (the README's notes API as a `CourierTool`), built next to the
/// test bundle by `swift build --build-tests`.
enum NotesTool {
    static var executable: URL { Subprocess.built("notes-tool") }

    /// Runs `notes-tool arguments…` to completion.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws
        -> Subprocess.Result
    {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "COURIER_TRANSPORT")
        env.removeValue(forKey: "COURIER_TOKEN")
        env.merge(environment) { $1 }
        return try await Subprocess.run(executable.path, arguments, environment: env, timeout: 120)
    }

    /// A `notes-tool mock` running in the background, on a free port it reports.
    final class Mock: Sendable {
        let process: Subprocess
        let log: URL
        let baseURL: URL

        /// Starts `notes-tool mock --port 0 arguments…` and waits for its `listening on` line.
        init(_ arguments: [String] = []) throws {
            log = FileManager.default.temporaryDirectory.appendingPathComponent("notes-mock-\(UUID()).log")
            let command = ([executable.path, "mock", "--port", "0"] + arguments).map(Self.quoted)
                .joined(separator: " ")
            process = try Subprocess("/bin/sh", ["-c", "exec \(command) >\(Self.quoted(log.path)) 2>&1"])
            let deadline = Date().addingTimeInterval(60)
            while true {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
                    let url = URL(string: String(line.dropFirst("listening on ".count)))
                {
                    baseURL = url
                    break
                }
                guard process.isRunning, Date() < deadline else {
                    process.send(SIGKILL)
                    throw MockDidNotStart(log: text)
                }
                usleep(20_000)
            }
        }

        /// Stops it with SIGTERM and returns what it printed.
        func stop() -> String {
            process.send(SIGTERM)
            _ = process.wait(timeout: 10)
            defer { try? FileManager.default.removeItem(at: log) }
            return (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }

        private static func quoted(_ word: String) -> String {
            "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
    }
}

/// `notes-tool mock` exited or said nothing within a minute.
struct MockDidNotStart: Error, CustomStringConvertible {
    var log: String
    var description: String { "notes-tool mock did not start: \(log)" }
}
