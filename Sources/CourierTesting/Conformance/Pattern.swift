import Foundation

/// A deterministic byte pattern (`byte[i] = i % 251`) that the server can produce at any
/// offset without holding the body, and a test can write to a file.
package enum Pattern {
    private static let period = 251
    private static let block: Data = Data((0..<(4 << 20) + period).map { UInt8($0 % period) })

    /// `count` bytes of the pattern starting at `offset`.
    package static func bytes(offset: Int64, count: Int) -> Data {
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

    /// Writes `length` bytes of the pattern to a new file in `directory`.
    /// - Throws: `ConformanceSetupError` when the file cannot be created; a file-handle error.
    package static func writeFile(length: Int64, in directory: URL) throws -> URL {
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

    /// A quick 64-bit FNV-1a digest in hex, for telling small bodies apart.
    package static func fnv1a(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

/// A failure to set up a test fixture (not a transport failure).
package struct ConformanceSetupError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
