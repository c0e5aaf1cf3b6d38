import Foundation

/// Every knob of the mock server, from the socket to the stub engine and chaos.
public struct MockServerConfiguration: Sendable {
    /// The address to bind (an IPv4 or IPv6 literal, or `localhost`).
    public var host: String
    /// The port to bind; 0 picks a free one (read it back from ``MockServer/port``).
    public var port: Int
    /// How many event-loop threads serve connections (at least 1).
    public var eventLoopCount: Int
    /// The listen backlog.
    public var backlog: Int
    /// The longest request line accepted; longer gets 414.
    public var maxRequestLineBytes: Int
    /// The largest header block (request line and fields) accepted; larger gets 431.
    public var maxHeaderBytes: Int
    /// The most header fields accepted; more gets 431.
    public var maxHeaderCount: Int
    /// The largest request body accepted; larger gets 413.
    public var maxBodyBytes: Int64
    /// Bodies larger than this are streamed to a file in ``uploadsDirectory`` instead of memory.
    public var bodySpillThreshold: Int
    /// Where large request bodies are spilled; the system temporary directory when nil.
    public var uploadsDirectory: URL?
    /// A keep-alive connection with no request in progress is closed after this long.
    public var idleTimeout: Duration
    /// A request whose head and body take longer than this to arrive gets 408 and is closed (slow clients).
    public var requestTimeout: Duration
    /// A connection whose client reads nothing of a pending response for this long is closed.
    public var writeTimeout: Duration
    /// The longest a response may take to reach the client once writing starts (plus any chunked dribble
    /// the stub asks for); a client that reads too slowly to finish in time is disconnected.
    public var responseTimeout: Duration
    /// How many requests of one connection may wait for their responses before reading pauses.
    public var maxPipelinedRequests: Int
    /// A folder of WireMock mapping files (`mappings/` or the folder itself, and `__files/`).
    public var mappingsDirectory: URL?
    /// How many requests the journal keeps; older ones are dropped and counted.
    public var journalLimit: Int
    /// Makes the outgoing requests of proxying stubs and recordings; ``URLSessionProxyClient`` when nil.
    public var proxyClient: (any ProxyClient)?
    /// The longest a proxied exchange may take before the caller gets a 504.
    public var proxyTimeout: Duration = .seconds(30)
    /// The largest upstream body a proxying stub or a recording takes; a larger one is a 502 (the
    /// upstream is cut off as soon as it passes this, or announces more).
    public var proxyMaxResponseBytes: Int64 = 64 << 20
    /// Renders every stub's response as a template, as if each had `transformers: ["response-template"]`.
    public var globalResponseTemplating = false
    /// Sees each answered request (admin and proxied ones aside) with its response, on the thread that
    /// answered it (an event loop for a static stub, else a handler thread) before the response is
    /// sent: what records a consumer's interactions as a pact. It must return quickly.
    public var exchangeObserver: (@Sendable (ServerRequest, ServerResponse) -> Void)?
    /// The share of non-admin requests (0–1) that chaos answers with a fault or a 5xx/429.
    public var chaosRate: Double
    /// The seed of chaos's random generator, for reproducible runs.
    public var chaosSeed: UInt64
    /// How long shutting down waits for in-flight responses before closing their connections; a response
    /// still delayed for a client that has stopped sending is cut at once.
    public var shutdownGracePeriod: Duration
    /// The readiness API the event loops wait with: epoll on Linux, `poll(2)` elsewhere. Tests set `.poll`
    /// on Linux so the portable loop runs there too.
    var pollerBackend = PollerBackend.platformDefault
    /// Makes each loop's poller instead of `pollerBackend`: tests wrap one that refuses.
    var makePoller: (@Sendable () throws -> any Poller)?
    /// How many sample records a data-backed handler should create; unused by the server.
    public var seedDataCount: Int
    /// Where the server reports what goes wrong inside it (a body it cannot read back, a descriptor the
    /// poller refuses), one line at a time; standard error unless told.
    public var log: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data("mock-server: \(line)\n".utf8))
    }

    /// Creates a configuration; every parameter has a sensible default for tests.
    public init(
        host: String = "127.0.0.1", port: Int = 0, eventLoopCount: Int = 2, backlog: Int = 1024,
        maxRequestLineBytes: Int = 8192, maxHeaderBytes: Int = 16384, maxHeaderCount: Int = 100,
        maxBodyBytes: Int64 = 64 * 1024 * 1024, bodySpillThreshold: Int = 1024 * 1024,
        uploadsDirectory: URL? = nil,
        idleTimeout: Duration = .seconds(60), requestTimeout: Duration = .seconds(30),
        writeTimeout: Duration = .seconds(30), responseTimeout: Duration = .seconds(120),
        maxPipelinedRequests: Int = 32, mappingsDirectory: URL? = nil,
        journalLimit: Int = 1000, chaosRate: Double = 0, chaosSeed: UInt64 = 0,
        shutdownGracePeriod: Duration = .seconds(1),
        seedDataCount: Int = 0
    ) {
        self.host = host
        self.port = port
        self.eventLoopCount = eventLoopCount
        self.backlog = backlog
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
        self.bodySpillThreshold = bodySpillThreshold
        self.uploadsDirectory = uploadsDirectory
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.writeTimeout = writeTimeout
        self.responseTimeout = responseTimeout
        self.maxPipelinedRequests = maxPipelinedRequests
        self.mappingsDirectory = mappingsDirectory
        self.journalLimit = journalLimit
        self.chaosRate = chaosRate
        self.chaosSeed = chaosSeed
        self.shutdownGracePeriod = shutdownGracePeriod
        self.seedDataCount = seedDataCount
    }
}
