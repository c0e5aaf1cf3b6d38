import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension APIConfigurable {
    /// Builds the request against `baseURL`, or with a relative URL when there is none.
    public func asURLRequest() throws -> URLRequest {
        try asHTTPRequest().flattenedURLRequest
    }

    /// Builds the request, with a body that may stream, against `baseURL`.
    public func asHTTPRequest() throws -> HTTPRequest {
        try makeHTTPRequest(baseURL: baseURL)
    }

    /// Builds the request against `base` (the endpoint's own `baseURL` wins over it).
    ///
    /// - Parameter base: the base URL to resolve `path` against; `nil` leaves it relative.
    /// - Throws: `CourierError.Code.invalidURL`, `.invalidHeader` or `.invalidParameters`.
    public func makeHTTPRequest(baseURL base: URL?) throws -> HTTPRequest {
        let url = try RequestBuilding.url(path: path, base: baseURL ?? base)
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = method.rawValue
        if let timeout { urlRequest.timeoutInterval = timeout }
        var request = HTTPRequest(urlRequest: urlRequest)
        try parameters.encode(into: &request)
        for field in headers {
            try RequestBuilding.validateHeader(name: field.name, value: field.value)
            request.urlRequest.setValue(field.value, forHTTPHeaderField: field.name)
        }
        return request
    }
}

/// The checks every request goes through before it is sent.
public enum RequestBuilding {
    /// Joins `path` onto `base`, refusing malformed paths.
    /// - Throws: `CourierError.Code.invalidURL`.
    public static func url(path: String, base: URL?) throws -> URL {
        let pieces = path.split(separator: PathComponent.invalidMark, omittingEmptySubsequences: false)
        if pieces.count >= 3 {
            throw CourierError(.invalidURL, String(pieces[1]))
        }
        if let dotSegment = dotSegment(in: path) {
            throw CourierError(
                .invalidURL, "path segment \(dotSegment.debugDescription) is not allowed in \(path)")
        }
        if path.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" || $0 == " " }) {
            throw CourierError(
                .invalidURL, "path contains whitespace or control characters: \(path.debugDescription)")
        }
        if let absolute = URL(string: path), absolute.scheme != nil {
            return absolute
        }
        guard let base else {
            guard let relative = URL(string: path) else {
                throw CourierError(.invalidURL, "malformed path \(path.debugDescription)")
            }
            return relative
        }
        var baseString = base.absoluteString
        while baseString.hasSuffix("/") { baseString.removeLast() }
        let joined = path.isEmpty ? baseString : baseString + (path.hasPrefix("/") ? path : "/" + path)
        guard let url = URL(string: joined), url.scheme != nil, url.host != nil else {
            throw CourierError(
                .invalidURL, "cannot build a URL from base \(base) and path \(path.debugDescription)")
        }
        return url
    }

    /// The first `.` or `..` segment of a relative path (before any query), if any.
    static func dotSegment(in path: String) -> String? {
        if let absolute = URL(string: path), absolute.scheme != nil { return nil }
        let pathPart = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        for segment in pathPart.split(separator: "/", omittingEmptySubsequences: false) {
            let decoded = segment.removingPercentEncoding ?? String(segment)
            if decoded == "." || decoded == ".." { return decoded }
        }
        return nil
    }

    /// Refuses header names that are not RFC 9110 tokens, and values with CR, LF or NUL.
    /// - Throws: `CourierError.Code.invalidHeader`.
    public static func validateHeader(name: String, value: String) throws {
        let tokenExtras = Set("!#$%&'*+-.^_`|~".utf8)
        let nameIsToken =
            !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                    || (byte >= 0x61 && byte <= 0x7A) || tokenExtras.contains(byte)
            }
        guard nameIsToken else {
            throw CourierError(.invalidHeader, "header name \(name.debugDescription) is not a valid token")
        }
        if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
            throw CourierError(.invalidHeader, "value of header \(name) contains CR, LF or NUL")
        }
    }
}
