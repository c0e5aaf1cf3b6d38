import CourierTesting
import Foundation
import TestSupport

/// SHA-256 through the `sha256sum` command (coreutils): the toolchain has no SHA-256 on
/// Linux, and a debug-built Swift loop would be slow for 64 MiB.
enum Checksum {
    /// The hex SHA-256 of a file.
    static func sha256(file: URL) throws -> String {
        try hex(try Subprocess.run("/usr/bin/sha256sum", [file.path], timeout: 120))
    }

    /// The hex SHA-256 of a file, waited for without holding a cooperative thread.
    static func sha256(file: URL) async throws -> String {
        let result = try await Subprocess.run("/usr/bin/sha256sum", [file.path], timeout: 120)
        return try hex(result)
    }

    private static func hex(_ result: Subprocess.Result) throws -> String {
        guard result.status == 0, let hex = result.stdoutText.split(separator: " ").first else {
            throw ConformanceSetupError("sha256sum failed with status \(result.status): \(result.stderrText)")
        }
        return String(hex)
    }

    /// The hex SHA-256 of bytes in memory (through a temporary file).
    static func sha256(data: Data) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-sha-\(UUID())")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try sha256(file: file)
    }
}
