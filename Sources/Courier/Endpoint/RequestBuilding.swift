import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The checks every request goes through before it is sent.
package enum RequestBuilding {
    /// Joins `path` onto `base`, refusing malformed paths.
    /// - Throws: `CourierError.Code.invalidURL`.
    package static func url(path: String, base: URL?) throws -> URL {
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

    /// Refuses a method that is not an RFC 9110 token, such as one holding CR or LF, which
    /// would let a second request be smuggled onto the connection.
    /// - Throws: `CourierError.Code.invalidParameters`.
    package static func validateMethod(_ name: String) throws {
        guard !name.isEmpty, name.utf8.allSatisfy(\.isTokenCharacter) else {
            throw CourierError(.invalidParameters, "HTTP method \(name.debugDescription) is not a token")
        }
    }

    /// The checks every transport makes before anything reaches a socket: the method is a
    /// token and every header is well formed.
    /// - Throws: `CourierError` `.invalidParameters` or `.invalidHeader`, carrying `request`.
    package static func validateForSending(_ request: TransportRequest) throws {
        do {
            try validateMethod(request.method.rawValue)
            for field in request.headers {
                try validateHeader(name: field.name, value: field.value)
            }
        } catch var error as CourierError {
            error.request = request
            throw error
        }
    }

    /// Refuses header names that are not RFC 9110 tokens, and values with CR, LF or NUL.
    /// - Throws: `CourierError.Code.invalidHeader`.
    package static func validateHeader(name: String, value: String) throws {
        let nameIsToken = !name.isEmpty && name.utf8.allSatisfy(\.isTokenCharacter)
        guard nameIsToken else {
            throw CourierError(.invalidHeader, "header name \(name.debugDescription) is not a valid token")
        }
        if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
            throw CourierError(.invalidHeader, "value of header \(name) contains CR, LF or NUL")
        }
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
