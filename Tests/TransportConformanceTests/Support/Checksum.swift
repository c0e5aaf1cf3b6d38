import Foundation
import TestSupport

/// SHA-256 through the `sha256sum` command (coreutils): the toolchain has no SHA-256 on
/// Linux, and a debug-built Swift loop would be slow for 64 MiB.
enum Checksum {
    /// The hex SHA-256 of a file.
    static func sha256(file: URL) throws -> String {
        let result = try Subprocess.run("/usr/bin/sha256sum", [file.path], timeout: 120)
        guard result.status == 0, let hex = result.stdoutText.split(separator: " ").first else {
            throw ConformanceSetupError("sha256sum failed with status \(result.status): \(result.stderrText)")
        }
        return String(hex)
    }

    /// A quick 64-bit FNV-1a digest in hex, for telling small bodies apart without a process.
    static func fnv1a(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// The hex SHA-256 of bytes in memory (through a temporary file).
    static func sha256(data: Data) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-sha-\(UUID())")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try sha256(file: file)
    }
}

/// A deterministic byte pattern (`byte[i] = i % 251`) that the server can produce at any
/// offset without holding the body, and the test can write to a file.
enum Pattern {
    private static let period = 251
    private static let block: Data = Data((0..<(4 << 20) + period).map { UInt8($0 % period) })

    /// `count` bytes of the pattern starting at `offset`.
    static func bytes(offset: Int64, count: Int) -> Data {
        var result = Data(capacity: count)
        var position = offset
        var remaining = count
        while remaining > 0 {
            let start = Int(position % Int64(period))
            let take = min(remaining, block.count - start)
            result.append(block[start..<(start + take)])
            position += Int64(take)
            remaining -= take
        }
        return result
    }

    /// Writes `length` bytes of the pattern to a new temporary file.
    static func writeFile(length: Int64, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("pattern-\(length).bin")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw ConformanceSetupError("cannot create \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var offset: Int64 = 0
        while offset < length {
            let count = Int(min(Int64(4 << 20), length - offset))
            try handle.write(contentsOf: bytes(offset: offset, count: count))
            offset += Int64(count)
        }
        return url
    }
}

/// A temporary directory removed when the test ends.
struct TemporaryDirectory: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-conformance-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
