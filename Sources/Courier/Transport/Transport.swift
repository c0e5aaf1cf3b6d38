import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Something that sends one HTTP request and returns the response.
///
/// Courier ships `URLSessionTransport` (in `CourierURLSession`), `CurlTransport` (in
/// `CourierCurl`) and `StubTransport` (in `CourierTesting`). Every transport passes the same
/// conformance suite, so they can be swapped by configuration alone.
///
/// A transport makes one exchange per call: it sends one request and returns one response
/// or stream, a 3xx included. It does not follow redirects, keep cookies, check the method and
/// headers, validate status codes, retry or decode: `NetworkManager` does all of that above it,
/// the same way over every transport, so one written outside Courier gets it all too.
/// It must throw only `CourierError`, with a transport or invalid-request category.
///
/// The requirements say `throws`, not `throws(CourierError)`, on purpose. A typed requirement
/// would bind every transport written outside Courier: each would have to spell
/// `throws(CourierError)` and convert by hand what continuations, Foundation and C callbacks
/// throw, and one written with plain `throws` would stop compiling. `NetworkManager` wraps
/// anything else a transport throws in a `CourierError` (keeping it as `underlying`), so its
/// own `send`, `download` and `stream` throw `CourierError` alone.
public protocol Transport: Sendable {
    /// Makes one exchange: sends `request` and returns the response head with its body.
    ///
    /// The body is `.data`, whole in memory (at most `maxResponseBytes`), or `.stream`, read
    /// as it arrives under backpressure. `request.options.prefersStreamedBody` (in
    /// `CourierTransportKit`) says which the caller prefers: whole for a body it will hold in
    /// memory anyway, streamed for one it writes on (a file, a consumer). Either answer is
    /// correct: `NetworkManager` takes both.
    /// A transport that can only collect returns `.data`; one that only streams, `.stream`.
    ///
    /// - Parameter request: what to send.
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

/// A request as a transport sees it, a plain value: method, URL, headers, a body that may
/// stream from disk, the transfer's options and a progress callback.
///
/// It is the one request type from an endpoint down to a transport: parameters encode into
/// it, interceptors adapt it, and `Transport.send(_:)` sends it. It carries no policy: where a
/// downloaded body goes, resuming, cookies and redirects are `NetworkManager`'s.
public struct TransportRequest: Sendable {
    /// The request's fields, shared between copies until one of them changes (copy on
    /// write): a request is copied at every layer from the endpoint down to the transport,
    /// and a copy of the box is one reference count instead of one for each field.
    ///
    /// `@unchecked Sendable` because: a `Storage` is only changed through a request that holds
    /// the sole reference to it (`mutableStorage`), and never after it was shared.
    ///
    /// The fields are not checked for exclusive access at run time: a box is only changed through
    /// `mutableStorage`, by the one request that holds it, so no two accesses can overlap; the
    /// check cost more than the rest of a field's read on a request's path.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var method: HTTPMethod
        @exclusivity(unchecked) var url: URL
        @exclusivity(unchecked) var headers: HTTPHeaders
        @exclusivity(unchecked) var body: RequestBody
        @exclusivity(unchecked) var options: TransferOptions
        @exclusivity(unchecked) var progress: (@Sendable (TransferProgress) -> Void)?

        init(
            method: HTTPMethod, url: URL, headers: HTTPHeaders, body: RequestBody, options: TransferOptions,
            progress: (@Sendable (TransferProgress) -> Void)?
        ) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.options = options
            self.progress = progress
        }

        func copy() -> Storage {
            Storage(
                method: method, url: url, headers: headers, body: body, options: options, progress: progress)
        }
    }

    private var storage: Storage

    /// The storage, copied first when another request shares it.
    private var mutableStorage: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    /// The request method.
    public var method: HTTPMethod {
        get { storage.method }
        set { mutableStorage.method = newValue }
    }
    /// The absolute URL to send to.
    public var url: URL {
        get { storage.url }
        set { mutableStorage.url = newValue }
    }
    /// The header fields, in order.
    public var headers: HTTPHeaders {
        get { storage.headers }
        _modify {
            let box = mutableStorage
            yield &box.headers
        }
    }
    /// The body to send.
    public var body: RequestBody {
        get { storage.body }
        set { mutableStorage.body = newValue }
    }
    /// Limits for this transfer.
    public var options: TransferOptions {
        get { storage.options }
        _modify {
            let box = mutableStorage
            yield &box.options
        }
    }
    /// Called from any thread as bytes go out and come in. Keep it cheap.
    public var progress: (@Sendable (TransferProgress) -> Void)? {
        get { storage.progress }
        set { mutableStorage.progress = newValue }
    }
    /// Creates a transport request.
    public init(
        method: HTTPMethod = .get,
        url: URL,
        headers: HTTPHeaders = HTTPHeaders(),
        body: RequestBody = .empty,
        options: TransferOptions = TransferOptions(),
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        storage = Storage(
            method: method, url: url, headers: headers, body: body, options: options, progress: progress)
    }

    /// Creates a request from a Foundation `URLRequest`: its method, URL, headers and
    /// timeout (as the idle timeout, unless `options` sets one), and its `httpBody` when
    /// `body` is empty.
    package init(
        urlRequest: URLRequest,
        body: RequestBody = .empty,
        options: TransferOptions = TransferOptions(),
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        var headers = HTTPHeaders()
        for (name, value) in (urlRequest.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers.add(name: name, value: value)
        }
        var body = body
        if case .empty = body, let data = urlRequest.httpBody { body = .data(data) }
        self.init(
            method: HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET"),
            url: urlRequest.url ?? URL(fileURLWithPath: "/"), headers: headers, body: body, options: options,
            progress: progress)
        if options.idleTimeout == nil {
            self.options.idleTimeout = .seconds(exactly: urlRequest.timeoutInterval) ?? .seconds(7 * 86_400)
        }
    }

    /// The request as a Foundation `URLRequest`, without its body.
    package var urlRequest: URLRequest {
        var request = URLRequest(url: url)
        if method != .get { request.httpMethod = method.rawValue }
        for field in headers { request.addValue(field.value, forHTTPHeaderField: field.name) }
        if let idle = options.idleTimeout { request.timeoutInterval = idle.timeInterval }
        return request
    }

    /// The head with an in-memory body copied into `httpBody`, for code that needs a plain
    /// `URLRequest`. File and stream bodies are not copied.
    package var flattenedURLRequest: URLRequest {
        var request = urlRequest
        if case .data(let data) = body { request.httpBody = data }
        return request
    }
}

/// Per-transfer limits. Defaults suit an API client.
///
/// Timeouts come in three kinds, as in curl and URLSession:
/// - `connectTimeout` bounds establishing the connection;
/// - the idle timeout (`idleTimeout`, 60 s by default)
///   fails a transfer that makes no progress for that long, however long it runs in all, so a
///   large download that keeps moving is never cut;
/// - `totalTimeout`, off by default, is a deadline for the whole transfer.
public struct TransferOptions: Sendable, Hashable {
    /// The most response-body bytes kept in memory. A larger `Content-Length` is refused
    /// before the body is read (unless no body follows: HEAD, 204, 304); a body that grows
    /// past it is aborted. Default 16 MiB.
    public var maxResponseBytes: Int64
    /// How long to wait for a connection to be established. Default 10 s.
    public var connectTimeout: Duration
    /// How long the transfer may go without sending or receiving a byte. `nil` means 60 s;
    /// zero or less means no idle timeout.
    public var idleTimeout: Duration?
    /// How long the whole transfer may take, redirects included. `nil` (the default) sets no
    /// deadline: only the connect and idle timeouts apply.
    public var totalTimeout: Duration?
    /// How many redirects to follow. 0 returns the 3xx response as is.
    public var maxRedirects: Int
    /// Which headers a redirect to another origin drops. Default: every secret header.
    public var crossOriginHeaderPolicy: CrossOriginHeaderPolicy
    /// For a streamed body: how many received bytes may wait unread before the transport
    /// stops reading from the network. Default 1 MiB.
    public var streamBufferBytes: Int = 1 << 20
    /// How the caller would like the response body: whole in memory, or as a stream. Set by
    /// `NetworkManager` for each call: `.whole` for `send`, `.streamed` for `stream`, `events`
    /// and `download`. A transport written outside Courier reads it as `prefersStreamedBody`
    /// (in `CourierTransportKit`).
    package var delivery: BodyDelivery = .whole

    /// How a transport hands over a response body.
    package enum BodyDelivery: Sendable, Hashable {
        /// Read whole into memory, up to `maxResponseBytes`, before the response is returned
        /// (`ResponseBody.data`): the fast path for a body that will be held in memory anyway.
        case whole
        /// Returned as soon as the head has arrived, the body following as it comes
        /// (`ResponseBody.stream`); `maxResponseBytes` is the reader's to apply.
        case streamed
    }

    /// Creates transfer options.
    public init(
        maxResponseBytes: Int64 = 16 << 20,
        connectTimeout: Duration = .seconds(10),
        idleTimeout: Duration? = nil,
        totalTimeout: Duration? = nil,
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

    /// The idle timeout in force; nil when it is not positive.
    package var effectiveIdleDuration: Duration? {
        let idle = idleTimeout ?? .seconds(60)
        return idle > .zero ? idle : nil
    }

    /// The idle timeout in force, in seconds; nil when it is not positive.
    package var effectiveIdleTimeout: TimeInterval? { effectiveIdleDuration?.timeInterval }

    /// Whether a response with this status to this method carries no body, whatever its
    /// `Content-Length` says (RFC 9110 §6.4.1), so the size limit does not apply.
    package static func hasNoBody(status: Int, method: HTTPMethod) -> Bool {
        method == .head || status == 204 || status == 304 || (100..<200).contains(status)
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
    /// The body: whole in memory, or a stream, as the transport chose.
    public var body: ResponseBody
    /// The URL that answered, after any redirects.
    public var url: URL?
    /// Where the time went.
    public var timings: Timings
    /// The HTTP version used, such as "HTTP/1.1" or "HTTP/2".
    public var httpVersion: String?
    /// Where it came from: `.network` from a transport, otherwise from an `HTTPCache`.
    public var source: ResponseSource

    /// Creates a response.
    public init(
        status: Int,
        headers: HTTPHeaders = HTTPHeaders(),
        body: ResponseBody = .data(Data()),
        url: URL? = nil,
        timings: Timings = Timings(),
        httpVersion: String? = nil,
        source: ResponseSource = .network
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.timings = timings
        self.httpVersion = httpVersion
        self.source = source
    }
}

/// A timing breakdown of one transfer, each figure in seconds from its start.
///
/// Transports fill in what they can measure; the rest stays `nil`.
public struct Timings: Sendable, Hashable {
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
