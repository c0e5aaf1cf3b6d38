import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one error type Courier throws.
///
/// Every error has a `code` whose `category` is one of four: the request could not be
/// built, the transport failed, the status was unacceptable, or the body did not decode.
/// It carries the request, the response head and body if one arrived, and the cause.
///
/// Courier's calls say so in their type (`throws(CourierError)`), so a `catch` after them gets
/// a `CourierError` without a cast. Inside a closure (a `Task { }`, say) Swift types the
/// caught error as `any Error` unless the `do` says what it throws: `do throws(CourierError)`.
///
/// ```swift
/// import CourierContract
///
/// let text = await Task { () -> String in
///     do throws(CourierError) {
///         return try await manager.send(NotesAPI.note(id: "42")).value.text
///     } catch where error.category == .unacceptableStatus {
///         return "status \(error.status ?? 0): \(error.bodySnippet ?? "")"
///     } catch {
///         return "\(error.code): \(error.message)"
///     }
/// }.value
/// ```
public struct CourierError: Error, Sendable, CustomStringConvertible {
    /// The broad class of failure.
    public struct Category: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The request could not be built or was refused before sending.
        public static let invalidRequest = Category("invalid request")
        /// The bytes did not make it: connectivity, timeout, TLS, cancellation, limits.
        public static let transport = Category("transport")
        /// A response arrived with a status (or content type) the caller does not accept.
        public static let unacceptableStatus = Category("unacceptable status")
        /// The body did not decode into the expected type.
        public static let decoding = Category("decoding")

        public var description: String { name }
    }

    /// The specific failure. A struct with static constants, so new codes can be added
    /// without breaking `switch` statements in user code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, such as "timedOut".
        package let name: String
        /// The broad class the code belongs to.
        public let category: Category

        /// A code; modules above Courier add the codes only they throw.
        package init(_ name: String, _ category: Category) {
            self.name = name
            self.category = category
        }

        public var description: String { name }

        // Invalid request.
        /// The URL is malformed or not absolute, or a path segment is unsafe (`..`).
        public static let invalidURL = Code("invalidURL", .invalidRequest)
        /// A header name or value has characters HTTP does not allow (CR, LF, NUL).
        public static let invalidHeader = Code("invalidHeader", .invalidRequest)
        /// A parameter could not be encoded.
        public static let invalidParameters = Code("invalidParameters", .invalidRequest)
        /// A body file could not be read.
        public static let invalidBody = Code("invalidBody", .invalidRequest)
        /// The configuration is missing or malformed.
        public static let invalidConfiguration = Code("invalidConfiguration", .invalidRequest)
        /// An interceptor failed with an error of its own before the request was sent.
        public static let interceptorFailed = Code("interceptorFailed", .invalidRequest)

        // Transport.
        /// The host name did not resolve.
        public static let cannotResolveHost = Code("cannotResolveHost", .transport)
        /// No connection could be made (refused, unreachable).
        public static let cannotConnect = Code("cannotConnect", .transport)
        /// The connection broke while sending or receiving, or the reply was empty or
        /// malformed.
        public static let connectionLost = Code("connectionLost", .transport)
        /// The connect or total timeout passed.
        public static let timedOut = Code("timedOut", .transport)
        /// The TLS handshake or certificate verification failed.
        public static let tls = Code("tls", .transport)
        /// The task was cancelled.
        public static let cancelled = Code("cancelled", .transport)
        /// The response body is larger than `TransferOptions.maxResponseBytes`.
        public static let responseTooLarge = Code("responseTooLarge", .transport)
        /// More redirects than `TransferOptions.maxRedirects`.
        public static let tooManyRedirects = Code("tooManyRedirects", .transport)
        /// Writing the response body to its file failed.
        public static let fileWriteFailed = Code("fileWriteFailed", .transport)
        /// Reading a response body kept in a file (a cache's) failed.
        public static let fileReadFailed = Code("fileReadFailed", .transport)
        /// A redirect led to a scheme the transport does not speak (such as `ftp`), or the
        /// server answered in a protocol it refuses (HTTP/0.9). Not worth retrying.
        public static let unsupportedProtocol = Code("unsupportedProtocol", .transport)
        /// The transport failed inside itself: it could not start the transfer, ran out of
        /// memory, or reported a failure no other code describes. Not worth retrying.
        public static let transferFailed = Code("transferFailed", .transport)

        // Unacceptable status.
        /// The status code is not in the acceptable set.
        public static let unacceptableStatus = Code("unacceptableStatus", .unacceptableStatus)
        /// The content type is not the one expected.
        public static let unacceptableContentType = Code(
            "unacceptableContentType", .unacceptableStatus)
        /// A resumed download's `206 Partial Content` did not carry the bytes asked for, even
        /// after starting over once.
        public static let rangeMismatch = Code("rangeMismatch", .unacceptableStatus)

        // Decoding.
        /// The body is not valid for the expected type.
        public static let decodingFailed = Code("decodingFailed", .decoding)
    }

    /// The specific failure.
    public var code: Code
    /// A human-readable explanation, without secrets.
    public var message: String
    /// The request as it was (or would have been) sent, if it got that far.
    public var request: TransportRequest?
    /// The response status, if a response arrived.
    public var status: Int?
    /// The response headers, if a response arrived.
    public var headers: HTTPHeaders?
    /// The response body, if one arrived in memory.
    public var body: Data?
    /// For decoding failures, the path to the value that failed, such as `notes[3].text`.
    public var codingPath: String?
    /// The error that caused this one, if any.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(
        _ code: Code,
        _ message: String,
        request: TransportRequest? = nil,
        status: Int? = nil,
        headers: HTTPHeaders? = nil,
        body: Data? = nil,
        codingPath: String? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.request = request
        self.status = status
        self.headers = headers
        self.body = body
        self.codingPath = codingPath
        self.underlying = underlying
    }

    /// The broad class of failure.
    public var category: Category { code.category }

    /// Up to 512 bytes of the body as text, for messages and logs, with secrets hidden:
    /// values of token-, secret- and password-like JSON keys and form fields are shown as
    /// `<redacted>` (see `Redaction.redact(body:)`).
    public var bodySnippet: String? {
        guard let body, !body.isEmpty else { return nil }
        let text = Redaction.redact(body: body.prefix(64 * 1024))
        guard text.utf8.count > 512 || body.count > 64 * 1024 else { return text }
        return String(decoding: Data(text.utf8).prefix(512), as: UTF8.self) + "…"
    }

    /// One line: what failed, the code (and the status or coding path when the message does
    /// not already give them), the method and redacted URL, then a redacted body snippet:
    ///
    /// `unacceptable status 404 (unacceptableStatus) — GET https://api.example.com/notes/9; body: {"error":"not found"}`
    ///
    /// The underlying error is left out (it is in `underlying`); secrets are hidden.
    public var description: String {
        var facts = [code.name]
        if let status, !message.contains("status \(status)") { facts.append("status \(status)") }
        if let codingPath, !codingPath.isEmpty, !message.contains(codingPath) {
            facts.append("at \(codingPath)")
        }
        var line = "\(Self.oneLine(message)) (\(facts.joined(separator: ", ")))"
        if let request {
            line += " — \(request.method) \(Redaction.redact(url: request.url))"
        }
        if let snippet = bodySnippet { line += "; body: " + Self.oneLine(escaping: snippet) }
        return line
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    private static func oneLine(escaping text: String) -> String {
        text.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
    }
}

extension CourierError: LocalizedError {
    public var errorDescription: String? { description }
}
