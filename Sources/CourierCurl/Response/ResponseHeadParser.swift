import Courier
import Foundation

/// Collects the response head from libcurl's header callback, one line at a time.
///
/// libcurl reports the head of every response it reads, including 1xx interim ones and
/// redirects it follows; a new status line starts over, so the last head wins. After a
/// chunked body it reports the trailer fields through the same callback: fields after the
/// blank line that ended a head are trailers, kept apart from the headers.
struct ResponseHeadParser: Sendable, Equatable {
    /// What one line was.
    enum Line: Equatable {
        case statusLine
        case field
        /// The blank line that ends a head.
        case end
        /// A trailer field, after the body.
        case trailer
        /// The blank line that ends the trailer fields.
        case endOfTrailers
        case ignored
    }

    private(set) var status: Int?
    private(set) var httpVersion: String?
    private(set) var headers = HTTPHeaders()
    /// Trailer fields of the last response's chunked body.
    private(set) var trailers = HTTPHeaders()
    /// Whether the blank line of the current head was seen.
    private(set) var isComplete = false
    /// The declared `Content-Length`, if any and valid: the first such field's, read as it arrives.
    private(set) var contentLength: Int64?
    private var sawContentLength = false
    /// Whether the head has a `Content-Encoding` or `Transfer-Encoding` field: only then can it
    /// name a coding that libcurl cannot decode.
    private(set) var hasCodings = false
    /// Continuation lines joined in the current head: each copies the fields, so past
    /// `maxFoldedLines` they are dropped rather than letting a server make the loop quadratic.
    private var foldedLines = 0
    static let maxFoldedLines = 100

    /// Consumes one header line as libcurl delivers it (with its CRLF).
    mutating func consume(_ raw: String) -> Line {
        var raw = raw
        return raw.withUTF8 { consume(UnsafeRawBufferPointer($0)) }
    }

    /// Consumes one header line from libcurl's buffer (with its CRLF), without first
    /// copying the whole line into a `String`.
    mutating func consume(_ raw: UnsafeRawBufferPointer) -> Line {
        var end = raw.count
        while end > 0, raw[end - 1] == UInt8(ascii: "\r") || raw[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: raw[0..<end])
        if line.isEmpty {
            if isComplete { return .endOfTrailers }
            isComplete = true
            return .end
        }
        if Self.isStatusLine(line) {
            guard let (version, code) = Self.parseStatusLine(line) else { return .ignored }
            status = code
            httpVersion = version
            headers = HTTPHeaders()
            // A typical response head has a dozen fields: one allocation instead of four.
            headers.reserveCapacity(16)
            trailers = HTTPHeaders()
            isComplete = false
            foldedLines = 0
            contentLength = nil
            sawContentLength = false
            hasCodings = false
            return .statusLine
        }
        let kind = isComplete ? Line.trailer : .field
        if line[0] == UInt8(ascii: " ") || line[0] == UInt8(ascii: "\t") {
            // Obsolete line folding: continue the previous value.
            guard foldedLines < Self.maxFoldedLines else { return .ignored }
            foldedLines += 1
            let folded = isComplete ? trailers : headers
            guard let previous = folded.reversed().first else { return .ignored }
            var fields = Array(folded)
            fields[fields.count - 1].value = previous.value + " " + Self.trimmingOWS(line[...])
            if isComplete {
                trailers = HTTPHeaders(fields)
            } else {
                headers = HTTPHeaders(fields)
                contentLength = headers["Content-Length"].flatMap { Int64($0) }
            }
            return kind
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .ignored }
        let nameBytes = UnsafeRawBufferPointer(rebasing: line[..<colon])
        let name = String(decoding: nameBytes, as: UTF8.self)
        let value = Self.trimmingOWS(line[(colon + 1)...])
        if isComplete {
            trailers.add(name: name, value: value)
        } else {
            headers.add(name: name, value: value)
            if !sawContentLength, Self.equalsIgnoringCase(nameBytes, "content-length") {
                sawContentLength = true
                contentLength = Int64(value)
            } else if Self.equalsIgnoringCase(nameBytes, "content-encoding")
                || Self.equalsIgnoringCase(nameBytes, "transfer-encoding")
            {
                hasCodings = true
            }
        }
        return kind
    }

    /// Whether `bytes` are `lowercased` but for the case of ASCII letters.
    private static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ lowercased: StaticString)
        -> Bool
    {
        guard bytes.count == lowercased.utf8CodeUnitCount else { return false }
        let expected = lowercased.utf8Start
        for index in 0..<bytes.count {
            let byte = bytes[index]
            let wanted = expected[index]
            guard
                byte == wanted
                    || (byte | 0x20 == wanted && wanted >= UInt8(ascii: "a") && wanted <= UInt8(ascii: "z"))
            else { return false }
        }
        return true
    }

    /// Long field values that most responses of an API carry, by UTF-8 length: a literal is made
    /// once, where `String(decoding:)` allocates for more than 15 bytes (shorter ones fit in the
    /// string itself, and are not looked up).
    private static let commonValues: [[String]] = {
        var table: [[String]] = Array(repeating: [], count: 40)
        let values = [
            "application/json", "application/json; charset=utf-8", "text/plain; charset=utf-8",
            "text/html; charset=utf-8", "application/octet-stream", "application/problem+json",
        ]
        for value in values where value.utf8.count < table.count { table[value.utf8.count].append(value) }
        return table
    }()

    /// The literal in `table` with exactly these bytes, if there is one.
    private static func interned(_ bytes: UnsafeRawBufferPointer, _ table: [[String]]) -> String? {
        guard bytes.count < table.count, let base = bytes.baseAddress else { return nil }
        for candidate in table[bytes.count] {
            var candidate = candidate
            let same = candidate.withUTF8 { utf8 in
                utf8.baseAddress.map { memcmp($0, base, bytes.count) == 0 }
            }
            if same == true { return candidate }
        }
        return nil
    }

    /// Whether `line` starts with "HTTP/".
    private static func isStatusLine(_ line: UnsafeRawBufferPointer) -> Bool {
        line.count >= 5 && line[0] == UInt8(ascii: "H") && line[1] == UInt8(ascii: "T")
            && line[2] == UInt8(ascii: "T") && line[3] == UInt8(ascii: "P") && line[4] == UInt8(ascii: "/")
    }

    /// The version and the status code of a status line ("HTTP/1.1 200 OK"): the text up to
    /// the first space, and the decimal number after the spaces that follow it. nil when the
    /// code is missing or is not a number.
    private static func parseStatusLine(_ line: UnsafeRawBufferPointer) -> (String, Int)? {
        let space = UInt8(ascii: " ")
        guard let versionEnd = line.firstIndex(of: space) else { return nil }
        var index = versionEnd
        while index < line.count, line[index] == space { index += 1 }
        var code = 0
        var digits = 0
        while index < line.count, line[index] != space {
            let digit = line[index] &- UInt8(ascii: "0")
            guard digit < 10, digits < 9 else { return nil }
            code = code * 10 + Int(digit)
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        let version = UnsafeRawBufferPointer(rebasing: line[..<versionEnd])
        return (versionName(version), code)
    }

    /// The version's name: for the versions there are, a literal rather than a string built
    /// for every response.
    private static func versionName(_ version: UnsafeRawBufferPointer) -> String {
        if version.elementsEqual("HTTP/1.1".utf8) { return "HTTP/1.1" }
        if version.elementsEqual("HTTP/2".utf8) { return "HTTP/2" }
        if version.elementsEqual("HTTP/1.0".utf8) { return "HTTP/1.0" }
        if version.elementsEqual("HTTP/3".utf8) { return "HTTP/3" }
        return String(decoding: version, as: UTF8.self)
    }

    /// The bytes without leading and trailing spaces and tabs, as a string.
    private static func trimmingOWS(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        var value = bytes
        while let first = value.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            value.removeFirst()
        }
        while let last = value.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            value.removeLast()
        }
        let bytes = UnsafeRawBufferPointer(rebasing: value)
        if bytes.count > 15, let value = interned(bytes, commonValues) { return value }
        return String(decoding: bytes, as: UTF8.self)
    }
}
