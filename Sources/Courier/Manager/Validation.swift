import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which responses count as success.
public struct Validation: Sendable, Hashable {
    /// Statuses that are accepted. Default `200..<300`.
    public var acceptableStatusCodes: Set<Int>
    /// Media types that are accepted (`application/json`, `image/*`, `*/*`), compared
    /// without parameters; `nil` accepts any. An empty body is never checked.
    public var acceptableContentTypes: [String]?

    /// Creates validation rules.
    /// - Parameters:
    ///   - acceptableStatusCodes: accepted statuses; default `200..<300`.
    ///   - acceptableContentTypes: accepted media types; default any.
    public init(
        acceptableStatusCodes: some Sequence<Int> = 200..<300, acceptableContentTypes: [String]? = nil
    ) {
        self.acceptableStatusCodes = Set(acceptableStatusCodes)
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Accepts 2xx statuses and any content type.
    public static let `default` = Validation()

    /// Checks the final response of a call, before its value is made.
    /// - Throws: `CourierError` with code `.unacceptableStatus` or `.unacceptableContentType`,
    ///   carrying the request, the status, headers and body.
    package func validate(_ response: Response<Void>) throws {
        let request = response.request
        // The body is read (from its file, for a download) only when it goes into an error.
        guard acceptableStatusCodes.contains(response.status) else {
            throw CourierError(
                .unacceptableStatus, "unacceptable status \(response.status)", request: request,
                status: response.status, headers: response.headers, body: response.body.errorSnapshot())
        }
        guard let acceptableContentTypes,
            response.body.carriesBytes(status: response.status, method: request.method)
        else { return }
        let received = response.headers["Content-Type"].map(MediaType.essence(of:)) ?? ""
        let accepted = acceptableContentTypes.contains { pattern in
            Self.matches(received, pattern: MediaType.essence(of: pattern))
        }
        guard accepted else {
            throw CourierError(
                .unacceptableContentType,
                "content type \(received.isEmpty ? "(none)" : received) is not one of "
                    + acceptableContentTypes.joined(separator: ", "),
                request: request, status: response.status, headers: response.headers,
                body: response.body.errorSnapshot())
        }
    }

    static func matches(_ type: String, pattern: String) -> Bool {
        if pattern == "*/*" || pattern == type { return true }
        if pattern.hasSuffix("/*") { return type.hasPrefix(String(pattern.dropLast())) }
        return false
    }
}

extension ResponseBody {
    /// Whether the body has bytes, as far as can be told before a stream is read: a stream
    /// does unless the status or method says no body follows.
    package func carriesBytes(status: Int, method: HTTPMethod) -> Bool {
        switch self {
        case .data(let data): !data.isEmpty
        case .file(_, let byteCount): byteCount > 0
        case .stream: !TransferOptions.hasNoBody(status: status, method: method)
        }
    }

    /// The start of the body for an error: a stream's is read by the manager, which may wait.
    package func errorSnapshot() -> Data {
        switch self {
        case .data(let data): return data
        case .stream: return Data()
        case .file(let url, _):
            guard let handle = try? FileHandle(forReadingFrom: url) else { return Data() }
            defer { try? handle.close() }
            return (try? handle.read(upToCount: 64 * 1024)) ?? Data()
        }
    }
}
