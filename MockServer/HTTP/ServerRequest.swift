import Foundation

/// A complete HTTP request as received by the mock server.
public struct ServerRequest: Sendable {
    /// The method, uppercased, e.g. `GET`.
    public var method: String
    /// The raw request-target, e.g. `/notes?limit=5`.
    public var target: String
    /// The target without its query, still percent-encoded.
    public var path: String
    /// The decoded query parameters, in order.
    public var query: [(name: String, value: String)]
    /// The request header fields, in order.
    public var headers: ServerHeaders
    /// The body when kept in memory; empty when it was spilled to ``bodyFile``.
    public var body: Data {
        didSet { memo = RequestMemo.forBody(body, bodyFile) }
    }
    /// The file holding a large body that was streamed to disk instead of memory.
    ///
    /// The server deletes this file after the handler returns; a handler that wants to keep it moves it.
    public var bodyFile: URL? {
        didSet { memo = RequestMemo.forBody(body, bodyFile) }
    }
    /// The work every copy of this request shares (its body's JSON, parsed once); none for a request
    /// without a body, which has nothing to parse and should cost nothing.
    var memo: RequestMemo?
    /// The client's address, `host:port`.
    public var remoteAddress: String
    /// The HTTP version, e.g. `HTTP/1.1`.
    public var version: String
    /// Trailer fields that followed a chunked body.
    public var trailers: ServerHeaders

    /// Creates a request; the path and query are derived from `target`.
    /// - Parameters:
    ///   - method: the method (uppercased by the caller).
    ///   - target: the raw request-target.
    ///   - headers: the header fields.
    ///   - body: the in-memory body.
    ///   - bodyFile: a file holding the body instead.
    ///   - remoteAddress: the client's address.
    ///   - version: the HTTP version.
    ///   - trailers: trailer fields of a chunked body.
    public init(
        method: String, target: String, headers: ServerHeaders = ServerHeaders(), body: Data = Data(),
        bodyFile: URL? = nil,
        remoteAddress: String = "", version: String = "HTTP/1.1", trailers: ServerHeaders = ServerHeaders()
    ) {
        self.method = method
        self.target = target
        let split = TargetDecoding.split(target)
        self.path = split.path
        self.query = split.query
        self.headers = headers
        self.body = body
        self.bodyFile = bodyFile
        self.memo = RequestMemo.forBody(body, bodyFile)
        self.remoteAddress = remoteAddress
        self.version = version
        self.trailers = trailers
    }

    /// The first decoded value of the query parameter `name`.
    /// - Parameter name: the parameter name (case-sensitive).
    /// - Returns: the value, or nil when absent.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The body, read from ``bodyFile`` when it was spilled to disk.
    /// - Returns: the body bytes.
    /// - Throws: the file system's error when the spilled body cannot be read.
    public func bodyData() throws -> Data {
        if let bodyFile { return try Data(contentsOf: bodyFile) }
        return body
    }

    /// The cookies of every `Cookie` field, in order, as `name=value` pairs (values as sent).
    package var cookies: [(name: String, value: String)] {
        var cookies: [(name: String, value: String)] = []
        for header in headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let trimmed = pair.trimmingWhitespace()
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                cookies.append((String(trimmed[..<equals]), String(trimmed[trimmed.index(after: equals)...])))
            }
        }
        return cookies
    }

    /// The path with percent-escapes decoded (for matching against literal paths).
    public var decodedPath: String {
        TargetDecoding.percentDecode(path, plusIsSpace: false)
    }
}

/// Splitting a request-target into path and decoded query.
enum TargetDecoding {
    /// Splits `target` at the first `?` and decodes the query pairs.
    static func split(_ target: String) -> (path: String, query: [(name: String, value: String)]) {
        let utf8 = target.utf8
        let question = UInt8(ascii: "?")
        // Over the contiguous bytes when the string has them (a request's target does): a scan by
        // `String.Index` costs several times more.
        let found: Int?? = utf8.withContiguousStorageIfAvailable { $0.firstIndex(of: question) }
        let offset =
            found ?? utf8.firstIndex(of: question).map { utf8.distance(from: utf8.startIndex, to: $0) }
        guard let offset else { return (target, []) }
        let mark = utf8.index(utf8.startIndex, offsetBy: offset)
        let path = String(target[..<mark])
        let rawQuery = target[target.utf8.index(after: mark)...]
        var query: [(name: String, value: String)] = []
        for pair in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = pair.firstIndex(of: "=") {
                query.append(
                    (
                        name: percentDecode(Substring(pair[..<equals]), plusIsSpace: true),
                        value: percentDecode(Substring(pair[pair.index(after: equals)...]), plusIsSpace: true)
                    ))
            } else {
                query.append((name: percentDecode(Substring(pair), plusIsSpace: true), value: ""))
            }
        }
        return (path, query)
    }

    /// Decodes `%XX` escapes (and `+` as space in queries); invalid escapes are kept literally.
    static func percentDecode<S: StringProtocol>(_ text: S, plusIsSpace: Bool) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.contains(UInt8(ascii: "%")) || (plusIsSpace && utf8.contains(UInt8(ascii: "+"))) else {
            return String(text)
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count, let high = hexValue(utf8[index + 1]),
                let low = hexValue(utf8[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
