import Courier
import Foundation

/// One range of a `Range: bytes=…` request (RFC 9110 §14.1.2): `a-b`, `a-` or `-n`.
enum ByteRange: Sendable, Hashable {
    /// From `first`, through `last` when given, else to the end.
    case from(Int64, through: Int64?)
    /// The last `n` bytes.
    case suffix(Int64)

    /// The range a `Range` field value asks for; nil for several ranges, another unit or a
    /// malformed value, which the cache leaves to the server.
    init?(_ value: String) {
        let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].lowercased() == "bytes" else { return nil }
        let spec = parts[1].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first = Self.number(spec[0])
        let last = Self.number(spec[1])
        switch (spec[0].isEmpty, spec[1].isEmpty) {
        case (true, false):
            guard let last else { return nil }
            self = .suffix(last)
        case (false, _):
            guard let first, spec[1].isEmpty || last != nil else { return nil }
            if let last, last < first { return nil }
            self = .from(first, through: last)
        case (true, true): return nil
        }
    }

    /// The byte positions it selects in a representation of `length` bytes; nil when it
    /// selects none (unsatisfiable, RFC 9110 §14.1.1).
    func positions(in length: Int64) -> ClosedRange<Int64>? {
        switch self {
        case .from(let first, let last):
            guard first < length else { return nil }
            return first...min(last ?? length - 1, length - 1)
        case .suffix(let count):
            guard count > 0, length > 0 else { return nil }
            return max(0, length - count)...(length - 1)
        }
    }

    /// Digits only, at most 18 of them.
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int64(text)
    }
}

extension ContentRange {
    /// The single byte range a `206`'s `headers` describe, with a known length; nil for none,
    /// several, a `*` length or a multipart body.
    init?(part headers: HTTPHeaders) {
        let values = headers.values(for: "Content-Range")
        guard values.count == 1, !(headers["Content-Type"]?.lowercased().hasPrefix("multipart/") ?? false),
            let range = ContentRange(values[0]), range.length != nil
        else { return nil }
        self = range
    }
}
