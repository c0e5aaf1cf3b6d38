import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URL {
    /// `path` joined onto `base`, refusing malformed paths: how every request's URL is built.
    /// - Throws: `CourierError.Code.invalidURL`.
    package static func joining(path: String, base: URL?) throws -> URL {
        let bytes = path.utf8
        let absolute =
            startsWithScheme(path) ? URL(string: path).flatMap { $0.scheme == nil ? nil : $0 } : nil
        if absolute == nil, let dotSegment = dotSegment(in: path) {
            throw CourierError(
                .invalidURL, "path segment \(dotSegment.debugDescription) is not allowed in \(path)")
        }
        if bytes.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 || $0 == 0x20 }) {
            throw CourierError(
                .invalidURL, "path contains whitespace or control characters: \(path.debugDescription)")
        }
        if let absolute { return absolute }
        guard let base else {
            guard let relative = URL(string: path) else {
                throw CourierError(.invalidURL, "malformed path \(path.debugDescription)")
            }
            return relative
        }
        let prefix = BasePrefix.of(base)
        var joined =
            path.isEmpty
            ? prefix.text : prefix.text + (path.utf8.first == UInt8(ascii: "/") ? path : "/" + path)
        if !prefix.query.isEmpty {
            if let mark = joined.firstIndex(of: "?") {
                joined.replaceSubrange(mark...mark, with: "?" + prefix.query + "&")
            } else if let mark = joined.firstIndex(of: "#") {
                joined.insert(contentsOf: "?" + prefix.query, at: mark)
            } else {
                joined += "?" + prefix.query
            }
        }
        // The joined URL's authority is the base's: "/" or "?" follows it.
        guard prefix.hasAuthority, let url = URL(string: joined) else {
            throw CourierError(
                .invalidURL, "cannot build a URL from base \(base) and path \(path.debugDescription)")
        }
        return url
    }

    /// What every URL built on one base URL starts with: the base without its query, fragment
    /// and trailing slashes, and the query it carries. Kept for the last base seen, since an
    /// app's requests share one or a few: a request no longer takes the base apart again.
    private struct BasePrefix: Sendable {
        /// The base as written, the key.
        var base: String
        var text: String
        /// A base URL's query (`?api_key=K`), which goes after the path, joined with the path's
        /// own query; its fragment is dropped (a fragment is never sent).
        var query: String
        /// Whether the base has a valid host and port.
        var hasAuthority: Bool

        private static let last = Locked<BasePrefix?>(nil)

        static func of(_ base: URL) -> BasePrefix {
            let written = base.absoluteString
            if let last = last.withLock({ $0 }), last.base == written { return last }
            var text = written
            var query = ""
            if let mark = text.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") })
            {
                let rest = text[mark...]
                if rest.first == "?" { query = String(rest.dropFirst().prefix { $0 != "#" }) }
                text = String(text[..<mark])
            }
            while text.utf8.last == UInt8(ascii: "/") { text.removeLast() }
            let prefix = BasePrefix(
                base: written, text: text, query: query, hasAuthority: URLAuthority(text) != nil)
            self.last.withLock { $0 = prefix }
            return prefix
        }
    }

    /// The first `.` or `..` segment of a relative path (before any query), if any.
    private static func dotSegment(in path: String) -> String? {
        let bytes = path.utf8
        var start = bytes.startIndex
        var index = start
        // Only ".", "%2e" and "%2E" can decode to a dot, so other segments need no decoding.
        var couldBeDots = true
        while true {
            let atEnd = index == bytes.endIndex || bytes[index] == UInt8(ascii: "?")
            if atEnd || bytes[index] == UInt8(ascii: "/") {
                if couldBeDots, start != index {
                    let text = String(decoding: bytes[start..<index], as: UTF8.self)
                    let decoded = text.removingPercentEncoding ?? text
                    if decoded == "." || decoded == ".." { return decoded }
                }
                if atEnd { return nil }
                start = bytes.index(after: index)
                couldBeDots = true
            } else if couldBeDots {
                let byte = bytes[index]
                couldBeDots =
                    byte == UInt8(ascii: ".") || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "2")
                    || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            }
            index = bytes.index(after: index)
        }
    }

    /// Whether `text` begins with an RFC 3986 scheme and its colon (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`).
    /// Only such strings can parse as absolute URLs, so others skip Foundation's URL parser.
    static func startsWithScheme(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        guard let first = bytes.next(), first.isASCIILetter else { return false }
        while let byte = bytes.next() {
            if byte == UInt8(ascii: ":") { return true }
            guard byte.isSchemeCharacter else { return false }
        }
        return false
    }
}

extension UInt8 {
    var isASCIILetter: Bool { (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) }

    /// RFC 3986 scheme character after the first: a letter, a digit, `+`, `-` or `.`.
    var isSchemeCharacter: Bool {
        isASCIILetter || (self >= 0x30 && self <= 0x39) || self == UInt8(ascii: "+")
            || self == UInt8(ascii: "-")
            || self == UInt8(ascii: ".")
    }

    /// RFC 9110 `tchar`: a digit, a letter, or one of ``!#$%&'*+-.^_`|~``.
    package var isTokenCharacter: Bool {
        switch self {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

extension HTTPMethod {
    /// Refuses a method that is not an RFC 9110 token, such as one holding CR or LF, which
    /// would let a second request be smuggled onto the connection.
    /// - Throws: `CourierError.Code.invalidParameters`.
    package static func validate(_ name: String) throws {
        guard !name.isEmpty, name.utf8.allSatisfy(\.isTokenCharacter) else {
            throw CourierError(.invalidParameters, "HTTP method \(name.debugDescription) is not a token")
        }
    }
}

extension HTTPHeaders {
    /// Refuses header names that are not RFC 9110 tokens, and values with CR, LF or NUL.
    /// - Throws: `CourierError.Code.invalidHeader`.
    package static func validate(name: String, value: String) throws(CourierError) {
        let nameIsToken = !name.isEmpty && name.utf8.allSatisfy(\.isTokenCharacter)
        guard nameIsToken else {
            throw CourierError(.invalidHeader, "header name \(name.debugDescription) is not a valid token")
        }
        if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
            throw CourierError(.invalidHeader, "value of header \(name) contains CR, LF or NUL")
        }
    }
}

extension TransportRequest {
    /// The checks every transport makes before anything reaches a socket: the method is a
    /// token and every header is well formed.
    /// - Throws: `CourierError` `.invalidParameters` or `.invalidHeader`, carrying `request`.
    package func validateForSending() throws {
        do {
            try HTTPMethod.validate(method.rawValue)
            for field in headers {
                try HTTPHeaders.validate(name: field.name, value: field.value)
            }
        } catch var error as CourierError {
            error.request = self
            throw error
        }
    }
}

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
