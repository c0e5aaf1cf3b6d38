import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Something that sends one HTTP request and returns the response.
///
/// Courier ships `URLSessionTransport`, `CurlTransport` (in `CourierCurl`) and
/// `StubTransport`. Every transport passes the same conformance suite, so they can be
/// swapped by configuration alone.
///
/// A transport does not validate status codes, retry or decode: `NetworkManager` does.
/// It must throw only `CourierError`, with a transport or invalid-request category.
public protocol Transport: Sendable {
    /// Sends `request` and returns the response head and body.
    ///
    /// - Parameter request: what to send and where to put the response body.
    /// - Returns: the response, whatever its status code.
    /// - Throws: `CourierError` for a request that cannot be sent or a transfer that
    ///   failed; `.cancelled` when the calling task is cancelled.
    func send(_ request: TransportRequest) async throws -> TransportResponse

    /// Stops the transport: transfers in flight end with `.cancelled` and its resources are
    /// released before this returns. The default does nothing.
    func shutdown() async
}

extension Transport {
    /// Does nothing: a transport with nothing to release needs no shutdown.
    public func shutdown() async {}
}

/// A request as a transport sees it: the head (`URLRequest`), a body that may stream,
/// and what to do with the response.
public struct TransportRequest: Sendable {
    /// Method, URL, headers and timeout. Its `httpBody` is ignored; `body` is sent.
    public var urlRequest: URLRequest
    /// The body to send.
    public var body: RequestBody
    /// Where the response body goes.
    public var destination: ResponseDestination
    /// Limits for this transfer.
    public var options: TransferOptions
    /// Called from any thread as bytes go out and come in. Keep it cheap.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// Called once the final response head (status 200 or more) has arrived, before any of
    /// its body is written; `NetworkManager.download` records the validator of a resumable
    /// download from it.
    package var onResponseHead: (@Sendable (_ status: Int, _ headers: HTTPHeaders) -> Void)?

    /// Creates a transport request.
    public init(
        urlRequest: URLRequest,
        body: RequestBody = .empty,
        destination: ResponseDestination = .memory,
        options: TransferOptions = TransferOptions(),
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        self.urlRequest = urlRequest
        self.body = body
        self.destination = destination
        self.options = options
        self.progress = progress
    }

    /// Creates a transport request from an `HTTPRequest`.
    public init(
        _ request: HTTPRequest,
        options: TransferOptions = TransferOptions(),
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        self.init(
            urlRequest: request.urlRequest,
            body: request.body,
            destination: request.destination,
            options: options,
            progress: progress
        )
    }
}

/// Per-transfer limits. Defaults suit an API client.
///
/// Timeouts come in three kinds, as in curl and URLSession:
/// - `connectTimeout` bounds establishing the connection;
/// - the idle timeout (`idleTimeout`, else the request's `timeoutInterval`, 60 s by default)
///   fails a transfer that makes no progress for that long, however long it runs in all, so a
///   large download that keeps moving is never cut;
/// - `totalTimeout`, off by default, is a deadline for the whole transfer.
public struct TransferOptions: Sendable, Hashable {
    /// The most response-body bytes kept in memory. A larger `Content-Length` is refused
    /// before the body is read (unless no body follows: HEAD, 204, 304); a body that grows
    /// past it is aborted. Default 16 MiB.
    public var maxResponseBytes: Int64
    /// How long to wait for a connection to be established, in seconds.
    public var connectTimeout: TimeInterval
    /// How long the transfer may go without sending or receiving a byte, in seconds. `nil`
    /// uses `urlRequest.timeoutInterval`.
    public var idleTimeout: TimeInterval?
    /// How long the whole transfer may take, in seconds, redirects included. `nil` (the
    /// default) sets no deadline: only the connect and idle timeouts apply.
    public var totalTimeout: TimeInterval?
    /// How many redirects to follow. 0 returns the 3xx response as is.
    public var maxRedirects: Int
    /// Which headers a redirect to another origin drops. Default: every secret header.
    public var crossOriginHeaderPolicy: CrossOriginHeaderPolicy

    /// Creates transfer options.
    public init(
        maxResponseBytes: Int64 = 16 << 20,
        connectTimeout: TimeInterval = 10,
        idleTimeout: TimeInterval? = nil,
        totalTimeout: TimeInterval? = nil,
        maxRedirects: Int = 10,
        crossOriginHeaderPolicy: CrossOriginHeaderPolicy = .sensitive
    ) {
        self.maxResponseBytes = maxResponseBytes
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.totalTimeout = totalTimeout
        self.maxRedirects = maxRedirects
        self.crossOriginHeaderPolicy = crossOriginHeaderPolicy
    }

    /// The idle timeout in force for `request`, in seconds; nil or non-positive for none.
    package func idleTimeout(for request: URLRequest) -> TimeInterval? {
        let idle = idleTimeout ?? request.timeoutInterval
        return idle.isFinite && idle > 0 ? idle : nil
    }

    /// Whether a response with this status to this method carries no body, whatever its
    /// `Content-Length` says (RFC 9110 §6.4.1), so the size limit does not apply.
    package static func hasNoBody(status: Int, method: String?) -> Bool {
        method?.uppercased() == "HEAD" || status == 204 || status == 304 || (100..<200).contains(status)
    }
}

/// Progress of one direction of a transfer.
public struct TransferProgress: Sendable, Hashable {
    /// Which way the bytes go.
    public enum Direction: Sendable, Hashable {
        case upload
        case download
    }

    /// Which way the bytes go.
    public var direction: Direction
    /// Bytes moved so far.
    public var completed: Int64
    /// Bytes expected in all, when known.
    public var total: Int64?

    /// Creates a progress report.
    public init(direction: Direction, completed: Int64, total: Int64?) {
        self.direction = direction
        self.completed = completed
        self.total = total
    }

    /// `completed / total` in 0...1, when the total is known and non-zero.
    public var fraction: Double? {
        guard let total, total > 0 else { return nil }
        return min(1, Double(completed) / Double(total))
    }
}

/// What a transport returns.
public struct TransportResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The response header fields, in order.
    public var headers: HTTPHeaders
    /// The body, in memory or in a file, as the request's destination asked.
    public var body: ResponseBody
    /// The URL that answered, after any redirects.
    public var url: URL?
    /// Where the time went.
    public var timings: Timings
    /// The HTTP version used, such as "HTTP/1.1" or "HTTP/2".
    public var httpVersion: String?

    /// Creates a response.
    public init(
        status: Int,
        headers: HTTPHeaders = HTTPHeaders(),
        body: ResponseBody = .data(Data()),
        url: URL? = nil,
        timings: Timings = Timings(),
        httpVersion: String? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.timings = timings
        self.httpVersion = httpVersion
    }
}

/// A timing breakdown of one transfer, each figure in seconds from its start.
///
/// Transports fill in what they can measure; the rest stays `nil`.
public struct Timings: Sendable, Hashable, Codable {
    /// Name resolution finished.
    public var dnsLookup: TimeInterval?
    /// TCP connection established.
    public var connect: TimeInterval?
    /// TLS handshake finished.
    public var tlsHandshake: TimeInterval?
    /// First response byte arrived.
    public var firstByte: TimeInterval?
    /// Time spent following redirects.
    public var redirect: TimeInterval?
    /// The whole transfer.
    public var total: TimeInterval?

    /// Creates a timing breakdown.
    public init(
        dnsLookup: TimeInterval? = nil,
        connect: TimeInterval? = nil,
        tlsHandshake: TimeInterval? = nil,
        firstByte: TimeInterval? = nil,
        redirect: TimeInterval? = nil,
        total: TimeInterval? = nil
    ) {
        self.dnsLookup = dnsLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.firstByte = firstByte
        self.redirect = redirect
        self.total = total
    }
}
