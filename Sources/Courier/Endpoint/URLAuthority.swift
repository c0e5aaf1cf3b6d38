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
        // Read over the contiguous UTF-8 bytes: stepping `String.UTF8View` indices costs several
        // times as much, and this runs a few times for every request.
        var text = text
        text.makeContiguousUTF8()
        guard let parts = text.utf8.withContiguousStorageIfAvailable(Self.parse) ?? nil else { return nil }
        let utf8 = text.utf8
        let colon = utf8.index(utf8.startIndex, offsetBy: parts.colon)
        let hostStart = utf8.index(colon, offsetBy: parts.hostStart - parts.colon)
        let hostEnd = utf8.index(hostStart, offsetBy: parts.hostEnd - parts.hostStart)
        scheme = text[..<colon]
        host = text[hostStart..<hostEnd]
        port = parts.port
    }

    /// The byte offsets of the scheme's colon and of the host, and the port, in `bytes`; nil
    /// when they are not a URL with an authority (see `init`).
    private static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> (colon: Int, hostStart: Int, hostEnd: Int, port: Int?)? {
        guard let first = bytes.first, first.isASCIILetter else { return nil }
        var colon = 1
        while colon < bytes.count, bytes[colon] != UInt8(ascii: ":") {
            guard bytes[colon].isSchemeCharacter else { return nil }
            colon += 1
        }
        guard colon + 2 < bytes.count, bytes[colon + 1] == UInt8(ascii: "/"),
            bytes[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        let authorityStart = colon + 3
        var end = authorityStart
        // The host and port follow the last "@" of the authority, if there is one.
        var start = authorityStart
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "@") { start = end + 1 }
            end += 1
        }
        var hostEnd = start
        if start < end, bytes[start] == UInt8(ascii: "[") {
            while hostEnd < end, bytes[hostEnd] != UInt8(ascii: "]") { hostEnd += 1 }
            guard hostEnd < end else { return nil }
            hostEnd += 1
        } else {
            while hostEnd < end, bytes[hostEnd] != UInt8(ascii: ":") { hostEnd += 1 }
        }
        guard hostEnd != start else { return nil }
        var port: Int?
        if hostEnd != end {
            guard bytes[hostEnd] == UInt8(ascii: ":") else { return nil }
            var value = 0
            for byte in bytes[(hostEnd + 1)..<end] {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
                guard value <= 65535 else { return nil }
            }
            if hostEnd + 1 < end { port = value }
        }
        return (colon, start, hostEnd, port)
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
