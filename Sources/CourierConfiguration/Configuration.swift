import Courier
import Foundation

/// Courier's settings, usually loaded from `courier.json`.
///
/// Every field is optional in the file; missing ones take the defaults shown (`total` has
/// none: no whole-transfer deadline). A key the file does not know is refused, naming it
/// and the closest known key; `load(from:)` reports every problem of a file at once.
///
/// ```json
/// {
///   "baseURL": "https://api.example.com",
///   "transport": "urlsession",
///   "timeouts": { "connect": 10, "idle": 60, "total": 300 },
///   "retry": { "maxAttempts": 3, "baseDelay": 0.5, "maxDelay": 30 },
///   "defaultHeaders": { "Accept": "application/json" },
///   "maxResponseBytes": 16777216,
///   "proxy": { "url": "http://proxy.internal:3128", "noProxy": ["localhost", ".corp.example"] }
///   "decoding": { "keys": "convertFromSnakeCase", "dates": "iso8601" }
/// }
/// ```
///
/// `COURIER_TRANSPORT=curl` in the environment overrides `transport`; see
/// `applyingEnvironment(_:)`.
public struct Configuration: Codable, Sendable, Hashable {
    /// Timeouts. `courier.json` gives them in seconds.
    ///
    /// In `courier.json`: `{ "connect": 10, "idle": 60, "total": 300 }`. The old key `"request"`
    /// is still read as `"idle"`; a file giving both is refused.
    public struct Timeouts: Codable, Sendable, Hashable {
        /// How long to wait for a connection. Default 10 s.
        public var connect: Duration
        /// How long a transfer may go without progress before it fails. Default 60 s.
        public var idle: Duration
        /// How long the whole transfer may take; `nil` (the default) sets no such deadline.
        public var total: Duration?

        /// Creates timeouts.
        public init(connect: Duration = .seconds(10), idle: Duration = .seconds(60), total: Duration? = nil) {
            self.connect = connect
            self.idle = idle
            self.total = total
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case connect, idle, total
        }

        /// The old name of `idle`, still read.
        static let requestAlias = "request"

        /// Reads timeouts; missing fields take their defaults.
        /// - Throws: `DecodingError` for a wrong type; `CourierError` (`.invalidConfiguration`)
        ///   for an unknown key, or for `idle` and `request` given together.
        public init(from decoder: any Decoder) throws {
            try ConfigurationKeys.check(
                decoder, known: CodingKeys.allCases.map(\.rawValue), alsoAccepted: [Self.requestAlias])
            let container = try decoder.container(keyedBy: ConfigurationKeys.AnyKey.self)
            let defaults = Timeouts()
            func value(_ name: String) throws -> Duration? {
                try ConfigurationProblems.read(in: decoder) {
                    try ConfigurationKeys.seconds(in: container, name)
                }
            }
            connect = try value(CodingKeys.connect.rawValue) ?? defaults.connect
            let idle = try value(CodingKeys.idle.rawValue)
            let request = try value(Self.requestAlias)
            if idle != nil, request != nil {
                let path = ResponseDecoding.pathString(decoder.codingPath)
                try ConfigurationProblems.report(
                    CourierError(
                        .invalidConfiguration,
                        "\(path) gives both \"idle\" and its old name \"request\"; keep \"idle\"",
                        codingPath: path),
                    in: decoder)
            }
            self.idle = idle ?? request ?? defaults.idle
            total = try value(CodingKeys.total.rawValue)
        }

        /// Writes the timeouts in seconds, as `courier.json` has them.
        /// - Throws: what the encoder throws.
        public func encode(to encoder: any Encoder) throws {
            try ConfigurationKeys.encodeSeconds(
                ["connect": connect, "idle": idle, "total": total], to: encoder)
        }
    }

    /// Retry settings for the `RetryPolicy` the manager installs.
    public struct Retry: Codable, Sendable, Hashable {
        /// Attempts in all, including the first; 1 disables retries. Default 3.
        public var maxAttempts: Int
        /// The backoff base: retry n waits up to `baseDelay * 2^(n-1)`. Default 0.5 s.
        public var baseDelay: Duration
        /// The most a backoff (or a `Retry-After`) may wait. Default 30 s.
        public var maxDelay: Duration

        /// Creates retry settings.
        public init(
            maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30)
        ) {
            self.maxAttempts = maxAttempts
            self.baseDelay = baseDelay
            self.maxDelay = maxDelay
        }

        /// Reads retry settings; missing fields take their defaults.
        /// - Throws: `DecodingError` for a wrong type; `CourierError` (`.invalidConfiguration`) for an unknown key.
        public init(from decoder: any Decoder) throws {
            try ConfigurationKeys.check(decoder, known: ["maxAttempts", "baseDelay", "maxDelay"])
            let container = try decoder.container(keyedBy: ConfigurationKeys.AnyKey.self)
            let defaults = Retry()
            func read<T>(_ read: () throws -> T?) throws -> T? {
                try ConfigurationProblems.read(in: decoder, read)
            }
            maxAttempts =
                try read { try container.decodeIfPresent(Int.self, forKey: .init("maxAttempts")) }
                ?? defaults.maxAttempts
            baseDelay =
                try read { try ConfigurationKeys.seconds(in: container, "baseDelay") } ?? defaults.baseDelay
            maxDelay =
                try read { try ConfigurationKeys.seconds(in: container, "maxDelay") } ?? defaults.maxDelay
        }

        /// Writes the settings, delays in seconds, as `courier.json` has them.
        /// - Throws: what the encoder throws.
        public func encode(to encoder: any Encoder) throws {
            try ConfigurationKeys.encodeSeconds(["baseDelay": baseDelay, "maxDelay": maxDelay], to: encoder)
            var container = encoder.container(keyedBy: ConfigurationKeys.AnyKey.self)
            try container.encode(maxAttempts, forKey: .init("maxAttempts"))
        }
    }

    /// What relative endpoint paths resolve against. Default none.
    public var baseURL: URL?
    /// Which transport to use. Default `.urlsession`.
    public var transport: TransportKind
    /// Timeouts.
    public var timeouts: Timeouts
    /// Retry settings.
    public var retry: Retry
    /// Header fields added to every request. Default none.
    public var defaultHeaders: [String: String]
    /// The most response-body bytes kept in memory. Default 16 MiB.
    public var maxResponseBytes: Int64
    /// An explicit proxy for the transport `makeTransport(choosingFrom:)` builds. Default none: the
    /// transport follows the `http_proxy`/`no_proxy` environment variables. URLSession on
    /// Linux cannot take one, so there `makeTransport(choosingFrom:)` refuses it.
    public var proxy: ProxySettings?

    /// How response bodies are decoded: key and date strategies.
    public var decoding: Decoding

    /// Creates a configuration.
    public init(
        baseURL: URL? = nil, transport: TransportKind = .urlsession, timeouts: Timeouts = Timeouts(),
        retry: Retry = Retry(), defaultHeaders: [String: String] = [:], maxResponseBytes: Int64 = 16 << 20,
        proxy: ProxySettings? = nil,
        decoding: Decoding = Decoding()
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.timeouts = timeouts
        self.retry = retry
        self.defaultHeaders = defaultHeaders
        self.maxResponseBytes = maxResponseBytes
        self.proxy = proxy
        self.decoding = decoding
    }

    /// Reads a configuration; missing fields take their defaults. Values are not checked
    /// here; `validate()` does that (and `load(from:)` calls it).
    /// - Throws: `DecodingError` for a wrong type; `CourierError` (`.invalidConfiguration`) for an unknown key.
    public init(from decoder: any Decoder) throws {
        try ConfigurationKeys.check(
            decoder,
            known: [
                "baseURL", "transport", "timeouts", "retry", "defaultHeaders", "maxResponseBytes", "proxy",
                "decoding",
            ])
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = Configuration()
        // Each setting with a problem takes its default, so that the others are read and checked too.
        func read<T: Decodable>(_ type: T.Type, _ key: CodingKeys) throws -> T? {
            try ConfigurationProblems.read(in: decoder) { try container.decodeIfPresent(type, forKey: key) }
        }
        baseURL = try read(URL.self, .baseURL)
        transport = try read(TransportKind.self, .transport) ?? defaults.transport
        timeouts = try read(Timeouts.self, .timeouts) ?? defaults.timeouts
        retry = try read(Retry.self, .retry) ?? defaults.retry
        defaultHeaders = try read([String: String].self, .defaultHeaders) ?? defaults.defaultHeaders
        maxResponseBytes = try read(Int64.self, .maxResponseBytes) ?? defaults.maxResponseBytes
        proxy = try read(ProxySettings.self, .proxy)
        decoding = try read(Decoding.self, .decoding) ?? defaults.decoding
    }

    /// The transfer limits these settings give: the response size limit, the connect
    /// timeout and the whole-transfer deadline (`timeouts.total`, none by default).
    public var transferOptions: TransferOptions {
        TransferOptions(
            maxResponseBytes: maxResponseBytes, connectTimeout: timeouts.connect, idleTimeout: timeouts.idle,
            totalTimeout: timeouts.total)
    }
}
