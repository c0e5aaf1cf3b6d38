import Foundation

/// A `Content-Range: bytes first-last/length` value (RFC 9110 §14.4), as a resumed download and
/// a cache's stored part read it.
package struct ContentRange: Sendable, Hashable {
    /// The byte positions the part holds.
    package var bytes: ClosedRange<Int64>
    /// The length of the whole representation; nil when the server wrote `*`.
    package var length: Int64?

    package init(bytes: ClosedRange<Int64>, length: Int64?) {
        self.bytes = bytes
        self.length = length
    }

    /// Parses a header value; nil for anything but one satisfied byte range.
    package init?(_ header: String?) {
        guard let header = header?.trimmingCharacters(in: .whitespaces),
            header.lowercased().hasPrefix("bytes ")
        else { return nil }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let bounds = halves.first?.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false) ?? []
        guard halves.count == 2, bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]),
            first <= last
        else { return nil }
        bytes = first...last
        if halves[1] == "*" {
            length = nil
        } else {
            guard let length = Int64(halves[1]), length > last else { return nil }
            self.length = length
        }
    }
}
