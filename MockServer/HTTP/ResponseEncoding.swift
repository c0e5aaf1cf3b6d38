import Foundation

/// Serialising status lines and headers, and interpreting `Range`, without Foundation formatters.
enum ResponseEncoding {
    /// The statuses a stub or handler may end a response with: 1xx are interim answers, and one sent as
    /// the response would leave the client waiting for the final one.
    static let finalStatuses = 200...999

    /// The standard reason phrase for `status`.
    static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }

    /// Whether a response with `status` to a request with `method` carries no body.
    static func hasNoBody(status: Int, method: String) -> Bool {
        method == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304
    }

    /// Appends the decimal digits of `value`.
    static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        if value == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value.magnitude
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            if value < 0 { out.append(UInt8(ascii: "-")) }
            while count > 0 {
                count -= 1
                out.append(buffer[count])
            }
        }
    }

    /// Appends the status line and the header fields, without the framing fields and `Connection`
    /// (the server writes those); returns whether `Date` and `Accept-Ranges` were among the fields.
    static func appendHead(status: Int, reason: String?, headers: ServerHeaders, to out: inout [UInt8])
        -> (hasDate: Bool, hasAcceptRanges: Bool)
    {
        out.append(contentsOf: [72, 84, 84, 80, 47, 49, 46, 49, 32])  // "HTTP/1.1 "
        appendDecimal(Int64(status), to: &out)
        out.append(32)
        appendSanitized(reason ?? Self.reason(for: status), to: &out)
        out.append(contentsOf: [13, 10])
        var hasDate = false
        var hasAcceptRanges = false
        for field in headers {
            switch field.name.utf8.count {
            case 14 where ServerHeaders.namesEqual(field.name, "content-length"): continue
            case 17 where ServerHeaders.namesEqual(field.name, "transfer-encoding"): continue
            case 10 where ServerHeaders.namesEqual(field.name, "connection"): continue
            case 4 where ServerHeaders.namesEqual(field.name, "date"): hasDate = true
            case 13 where ServerHeaders.namesEqual(field.name, "accept-ranges"): hasAcceptRanges = true
            default: break
            }
            appendSanitized(field.name, to: &out)
            out.append(contentsOf: [58, 32])
            appendSanitized(field.value, to: &out)
            out.append(contentsOf: [13, 10])
        }
        return (hasDate, hasAcceptRanges)
    }

    /// Appends text without CR or LF, so that no handler-supplied value can split the header block.
    static func appendSanitized(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 where byte != 13 && byte != 10 { out.append(byte) }
    }

    /// Appends the lowercase hexadecimal digits of `value` (chunk sizes).
    static func appendHex(_ value: Int, to out: inout [UInt8]) {
        out.append(contentsOf: String(value, radix: 16).utf8)
    }

    /// A resolved byte range of a representation of `size` bytes.
    enum RangeResult: Equatable {
        /// No usable `Range` header: send everything.
        case whole
        /// Send bytes `lower...upper`.
        case partial(lower: Int64, upper: Int64)
        /// The range cannot be satisfied (416).
        case unsatisfiable
    }

    /// The `Range` header to honour: `range`, unless an `If-Range` names a validator that is
    /// not the response's strong `ETag` or its exact `Last-Modified` (RFC 9110 §13.1.5), in
    /// which case the whole body is sent.
    static func honouredRange(_ range: String?, ifRange: String?, headers: ServerHeaders) -> String? {
        guard let range, let ifRange = ifRange?.trimmed(of: " \t") else { return range }
        if ifRange.hasPrefix("\"") || ifRange.hasPrefix("W/") {
            guard let etag = headers["ETag"]?.trimmed(of: " \t"), !etag.hasPrefix("W/"), etag == ifRange
            else { return nil }
            return range
        }
        guard let lastModified = headers["Last-Modified"]?.trimmed(of: " \t"), lastModified == ifRange
        else { return nil }
        return range
    }

    /// Interprets a `Range` header; only single `bytes` ranges are honoured, anything else gets the whole body.
    static func resolveRange(_ header: String?, size: Int64) -> RangeResult {
        guard let header else { return .whole }
        let trimmed = header.trimmed(of: " \t")
        guard trimmed.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = trimmed.dropFirst(6).trimmed(of: " \t")
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmed(of: " \t")
        let last = spec[spec.index(after: dash)...].trimmed(of: " \t")
        if first.isEmpty {
            guard let suffix = Int64(last), suffix >= 0 else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .partial(lower: max(0, size - suffix), upper: size - 1)
        }
        guard let lower = Int64(first), lower >= 0 else { return .whole }
        var upper = size - 1
        if !last.isEmpty {
            guard let value = Int64(last), value >= lower else { return .whole }
            upper = min(value, size - 1)
        }
        guard lower < size else { return .unsatisfiable }
        return .partial(lower: lower, upper: upper)
    }
}

extension StringProtocol {
    /// The string without leading and trailing characters from `set`.
    func trimmed(of set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

/// The head of a response that is the same on every request (a stub's response without templates or
/// proxying), serialised once: the status line and the header fields, without `Date`, the framing
/// fields and `Connection`, which the connection writes per response.
///
/// Immutable; made when a stub is installed, so that a changed stub gets a new one.
final class PreparedResponse: Sendable {
    /// Where the body comes from.
    enum Body: Sendable {
        case empty
        case data(Data)
        /// A file, by its path (resolved once).
        case file(path: String)
    }

    /// The status it was made for.
    let status: Int
    /// How many header fields it was made with.
    let headerCount: Int
    /// `HTTP/1.1 200 OK\r\n` and the header fields, each ending in CRLF.
    let head: [UInt8]
    /// Whether the fields include `Date` (then none is added).
    let hasDate: Bool
    /// Whether the fields include `Accept-Ranges` (then none is added for a file body).
    let hasAcceptRanges: Bool
    let body: Body

    /// A prepared head for these parts; nil when the status's responses have no body or no
    /// `Content-Length` (1xx, 204, 304) or is not a final status: those take the general path.
    init?(status: Int, reason: String?, headers: ServerHeaders, body: Body) {
        guard ResponseEncoding.finalStatuses.contains(status), status != 204, status != 304 else {
            return nil
        }
        var head: [UInt8] = []
        let found = ResponseEncoding.appendHead(status: status, reason: reason, headers: headers, to: &head)
        self.status = status
        self.headerCount = headers.count
        self.head = head
        self.hasDate = found.hasDate
        self.hasAcceptRanges = found.hasAcceptRanges
        self.body = body
    }
}
