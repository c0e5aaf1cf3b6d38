import Foundation

/// The scheme, host and port of an absolute URL, read from its text.
///
/// Foundation's `URL.scheme`, `.host` and `.port` parse the URL again on every call, and `host`
/// also percent-decodes it; a request asked for them several times on its way to the socket.
/// This reads them in one pass over `absoluteString`, without decoding. The host keeps its
/// brackets when it is an IP literal (`[::1]`).
package struct URLAuthority: Sendable, Equatable {
    /// The scheme as written, such as "https".
    package var scheme: Substring
    /// The host as written: not percent-decoded, not lowercased.
    package var host: Substring
    /// The port written in the URL, if any.
    package var port: Int?

    /// The parts of `text`, or nil when it is not `scheme://authority…` with a host that is
    /// not empty and, if written, a port of digits up to 65535.
    package init?(_ text: String) {
        let bytes = text.utf8
        guard RequestBuilding.startsWithScheme(text), let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
        else { return nil }
        var index = bytes.index(after: colon)
        for _ in 0..<2 {
            guard index != bytes.endIndex, bytes[index] == UInt8(ascii: "/") else { return nil }
            index = bytes.index(after: index)
        }
        var end = index
        while end != bytes.endIndex {
            let byte = bytes[end]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            end = bytes.index(after: end)
        }
        // The host and port follow the last "@" of the authority, if there is one.
        var start = index
        var cursor = index
        while cursor != end {
            if bytes[cursor] == UInt8(ascii: "@") { start = bytes.index(after: cursor) }
            cursor = bytes.index(after: cursor)
        }
        var hostEnd = start
        if start != end, bytes[start] == UInt8(ascii: "[") {
            guard let close = bytes[start..<end].firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostEnd = bytes.index(after: close)
        } else {
            while hostEnd != end, bytes[hostEnd] != UInt8(ascii: ":") {
                hostEnd = bytes.index(after: hostEnd)
            }
        }
        guard hostEnd != start else { return nil }
        var port: Int?
        if hostEnd != end {
            guard bytes[hostEnd] == UInt8(ascii: ":") else { return nil }
            var value = 0
            var digits = 0
            for byte in bytes[bytes.index(after: hostEnd)..<end] {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
                digits += 1
                guard value <= 65535 else { return nil }
            }
            if digits > 0 { port = value }
        }
        scheme = text[..<colon]
        host = text[start..<hostEnd]
        self.port = port
    }

    /// Whether the scheme is "https" (true) or "http" (false), in any case; nil for another scheme.
    package var isHTTPS: Bool? {
        var lowered = scheme.utf8.lazy.map { $0 | 0x20 }.makeIterator()
        guard lowered.next() == UInt8(ascii: "h"), lowered.next() == UInt8(ascii: "t"),
            lowered.next() == UInt8(ascii: "t"), lowered.next() == UInt8(ascii: "p")
        else { return nil }
        switch lowered.next() {
        case nil: return false
        case UInt8(ascii: "s"): return lowered.next() == nil ? true : nil
        default: return nil
        }
    }
}

extension URL {
    /// The URL's scheme, host and port, read from its text in one pass; nil for a URL without
    /// a host (relative, `mailto:`, `file:///`).
    package var authority: URLAuthority? { URLAuthority(absoluteString) }
}
