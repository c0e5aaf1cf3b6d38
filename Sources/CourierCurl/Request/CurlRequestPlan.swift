import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Everything `CurlTransport` sets on an easy handle for one request, computed without
/// touching libcurl so that it can be checked in unit tests.
struct CurlRequestPlan: Sendable, Equatable {
    /// How the method is expressed to libcurl.
    enum Method: Sendable, Equatable {
        /// `CURLOPT_HTTPGET`.
        case get
        /// `CURLOPT_NOBODY`.
        case head
        /// `CURLOPT_POST`, which libcurl turns into GET on a 301/302/303 like browsers do.
        case post
        /// `CURLOPT_CUSTOMREQUEST`, plus `CURLOPT_POST` when a body is sent.
        case custom(String)
    }

    /// Whether and how a request body is sent.
    enum Upload: Sendable, Equatable {
        case none
        /// `Content-Length` known (`CURLOPT_POSTFIELDSIZE_LARGE`).
        case sized(Int64)
        /// Length unknown: chunked transfer coding on HTTP/1.1.
        case chunked
    }

    /// Scheme, host and port (and the proxy, when one is set): transfers with the same origin
    /// share connections, and wait in one queue for them. Fields rather than one string built
    /// for every request: a host fits in a small string, "proxy|scheme://host:port" does not.
    struct Origin: Sendable, Hashable {
        /// The proxy's URL; "" for none.
        var proxy: String
        var isHTTPS: Bool
        var host: String
        var port: Int
    }

    var url: String
    var origin = Origin(proxy: "", isHTTPS: false, host: "", port: 0)
    /// Whether the origin may answer over HTTP/2, where transfers share a connection
    /// (https, with HTTP/2 preferred); the loop learns the truth from the first response.
    var mayMultiplex: Bool = false
    var method: Method
    var upload: Upload
    /// Lines for `CURLOPT_HTTPHEADER`: "Name: value", "Name;" for an empty value, and
    /// "Name:" to suppress a header libcurl would add on its own.
    var headerLines: [String]
    /// `CURLOPT_CONNECTTIMEOUT_MS`; 0 means libcurl's default.
    var connectTimeoutMilliseconds: Int
    /// `CURLOPT_TIMEOUT_MS`; 0 means no total timeout.
    var totalTimeoutMilliseconds: Int
    /// How long no byte may move before the transfer fails; checked in the progress
    /// callback, which libcurl calls at least once a second. nil for none.
    var idleTimeout: Duration?
    /// `CURLOPT_ACCEPT_ENCODING`; "" offers every encoding libcurl can decode.
    var acceptEncoding: String
    /// Whether the header list ends with the transport's `Accept-Encoding` line (the request has
    /// none of its own). libcurl formats its own line twice a request (`aprintf`, then into the
    /// head); a line in the list once.
    var offersEncodings: Bool = false
    var caBundlePath: String?
    /// The transport's `User-Agent`: `CURLOPT_USERAGENT` for a request that may go through a
    /// proxy (its CONNECT carries the option, not the header list); a direct request's is the
    /// pool's shared line (libcurl formats the option's line anew on every transfer).
    var userAgent: String
    /// Whether the request has no `User-Agent` of its own.
    var offersUserAgent: Bool = true
    /// Whether libcurl is to read no proxy variable (`CURLOPT_NOPROXY` "", once per handle): a
    /// proxy is configured, whose `noProxy` the plan has applied, or the environment named none
    /// when the transport was made (`proxy` is then ""). Without this, libcurl would look
    /// `no_proxy` up on every transfer, and let it bypass a configured proxy.
    var ignoresProxyEnvironment: Bool { proxy != nil }
    var preferHTTP2: Bool
    /// The in-memory body limit; nil when the body goes to a file.
    var maxResponseBytes: Int64?
    /// `CURLOPT_PROTOCOLS_STR` and `CURLOPT_REDIR_PROTOCOLS_STR`.
    var allowedProtocols: String
    /// `CURLOPT_FRESH_CONNECT` for requests that must not be sent twice (not idempotent, no
    /// `Idempotency-Key`): libcurl silently re-sends a request whose reused connection died
    /// before a reply, and the server may already have processed it.
    var freshConnection: Bool = false
    /// `CURLOPT_PROXY`: nil leaves libcurl to the environment; "" connects directly (a
    /// `noProxy` host, or no proxy configured and none in the environment); otherwise the
    /// proxy's URL.
    var proxy: String? = nil

    /// Whether the request connects directly, whatever the environment says.
    var isDirect: Bool { proxy?.isEmpty == true }
    /// `CURLOPT_PINNEDPUBLICKEY`: "sha256//…" pins joined with ";"; nil pins nothing.
    var pinnedPublicKey: String? = nil

    /// Whether the request body is big, or of unknown size: it then gets a big upload buffer.
    var bigUpload: Bool {
        switch upload {
        case .none: false
        case .sized(let length): length > 64 * 1024
        case .chunked: true
        }
    }

    /// Whether the response gets a big receive buffer: a big download to a file speeds up with
    /// one, but libcurl allocates it for every transfer and frees it after, so for a response
    /// in memory or streamed to a consumer that costs more than the request itself.
    func bigDownload(streamed: Bool) -> Bool { maxResponseBytes == nil && !streamed }

    /// Builds the plan for `request`.
    ///
    /// - Throws: `CourierError` `.invalidURL` for a URL that is not absolute http(s),
    ///   `.invalidHeader` for a header libcurl would send malformed (CR, LF, NUL),
    ///   `.invalidRequest`-category codes for a malformed method, `.invalidBody` for a
    ///   body file that cannot be read.
    /// - Parameter environmentNamesProxy: whether the process environment named a proxy when
    ///   the transport was created (`ProxyEnvironment`); consulted only when `configuration`
    ///   has no proxy of its own.
    static func make(
        for request: TransportRequest, configuration: CurlTransport.Configuration,
        environmentNamesProxy: Bool = true
    ) throws -> CurlRequestPlan {
        let url = request.url
        let text = url.absoluteString
        guard let authority = URLAuthority(text), let isHTTPS = authority.isHTTPS else {
            throw CourierError(
                .invalidURL, "CurlTransport needs an absolute http or https URL, got \(text)",
                request: request)
        }
        let methodName = request.method.rawValue
        do {
            // The header fields are checked by `headerLines` below.
            try HTTPMethod.validate(methodName)
        } catch var error as CourierError {
            error.request = request
            throw error
        }

        let bodyPresent: Bool
        if case .empty = request.body { bodyPresent = false } else { bodyPresent = true }
        let length = request.body.length
        if case .file(let file) = request.body, length == nil {
            throw CourierError(
                .invalidBody, "cannot read body file \(file.path)", request: request)
        }
        let bodyUpload: Upload = length.map { .sized($0) } ?? .chunked

        let method: Method
        let upload: Upload
        switch methodName {
        case "HEAD":
            method = .head
            upload = .none
        case "GET" where !bodyPresent:
            method = .get
            upload = .none
        case "POST":
            method = .post
            upload = bodyUpload
        default:
            method = .custom(methodName)
            upload = bodyPresent || methodName == "PUT" || methodName == "PATCH" ? bodyUpload : .none
        }

        let lines: [String]
        do {
            lines = try headerLines(for: request.headers.map { ($0.name, $0.value) }, upload: upload)
        } catch var error as CourierError {
            error.request = request
            throw error
        }

        let total = request.options.totalTimeout?.timeInterval ?? 0
        let maxResponseBytes: Int64?
        if request.options.delivery == .whole {
            maxResponseBytes = request.options.maxResponseBytes
        } else {
            maxResponseBytes = nil
        }
        let proxy =
            configuration.proxy.map { $0.bypasses(url) ? "" : $0.url.absoluteString }
            ?? (environmentNamesProxy ? nil : "")
        let port = authority.port ?? (isHTTPS ? 443 : 80)
        // "ex%41mple.test" is the host "example.test" (as Foundation's `URL.host` decodes it): one origin.
        let host =
            authority.host.utf8.contains(UInt8(ascii: "%"))
            ? (String(authority.host).removingPercentEncoding ?? String(authority.host))
            : String(authority.host)
        return CurlRequestPlan(
            url: text,
            origin: Origin(proxy: proxy ?? "", isHTTPS: isHTTPS, host: host.lowercased(), port: port),
            mayMultiplex: isHTTPS && configuration.preferHTTP2,
            method: method,
            upload: upload,
            headerLines: lines,
            connectTimeoutMilliseconds: milliseconds(request.options.connectTimeout.timeInterval),
            totalTimeoutMilliseconds: milliseconds(total),
            // A duration, not seconds: the progress callback compares it many times a request.
            idleTimeout: request.options.effectiveIdleDuration,
            acceptEncoding: "",
            offersEncodings: !request.headers.contains("Accept-Encoding"),
            caBundlePath: configuration.caBundle?.path,
            userAgent: configuration.userAgent,
            offersUserAgent: !request.headers.contains("User-Agent"),
            preferHTTP2: configuration.preferHTTP2,
            maxResponseBytes: maxResponseBytes,
            allowedProtocols: "http,https",
            freshConnection: !request.method.isIdempotent && !request.headers.contains("Idempotency-Key"),
            proxy: proxy,
            pinnedPublicKey: configuration.pinnedPublicKeys.isEmpty
                ? nil : configuration.pinnedPublicKeys.map(\.description).joined(separator: ";")
        )
    }

    /// The `CURLOPT_HTTPHEADER` lines for `fields`, in order.
    ///
    /// Foundation on Linux silently drops some malformed values from a `URLRequest`, but
    /// other sources may not, so every field is checked here again before libcurl sees it.
    /// - Throws: `CourierError.Code.invalidHeader` for a name that is not a token or a
    ///   value with CR, LF or NUL.
    static func headerLines(for fields: [(name: String, value: String)], upload: Upload) throws -> [String] {
        var lines: [String] = []
        var present = Set<String>()
        for (name, value) in fields {
            try HTTPHeaders.validate(name: name, value: value)
            let lower = name.lowercased()
            // The transport owns framing: it sets Content-Length or chunked coding itself.
            if lower == "content-length" || lower == "transfer-encoding" { continue }
            present.insert(lower)
            lines.append(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        if upload != .none {
            if upload == .chunked { lines.append("Transfer-Encoding: chunked") }
            // No "Expect: 100-continue" round trip (libcurl waits up to 1 s for it).
            if !present.contains("expect") { lines.append("Expect:") }
            // libcurl would otherwise add "application/x-www-form-urlencoded" to a POST.
            if !present.contains("content-type") { lines.append("Content-Type:") }
        }
        return lines
    }

    /// Seconds to whole milliseconds, at least 1 for a positive interval; 0 for none.
    static func milliseconds(_ seconds: TimeInterval) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return max(1, Int((seconds * 1000).rounded(.up).clamped(to: 1...Double(Int32.max))))
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
