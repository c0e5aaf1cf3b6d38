import Foundation

/// An explicit proxy for a transport's requests, with hosts that bypass it.
///
/// Without one, a transport behaves as before: `CurlTransport` follows libcurl's
/// `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy` environment variables. With one,
/// the environment is ignored: every request goes through `url` except those whose host
/// matches `noProxy`, which connect directly.
///
/// ```swift
/// import CourierCurl
///
/// let proxy = try ProxySettings(url: "http://proxy.internal:3128", noProxy: ["localhost", ".corp.example"])
/// let transport = CurlTransport(configuration: .init(proxy: proxy))
/// ```
///
/// The proxy URL's scheme says how to talk to it:
/// - `http`: an HTTP proxy. `http://` requests are forwarded in absolute form;
///   `https://` requests go through a `CONNECT` tunnel, so TLS stays end to end.
/// - `socks5`: SOCKS5, the client resolving host names.
/// - `socks5h`: SOCKS5, the proxy resolving host names.
///
/// Credentials may sit in the URL (`http://user:secret@proxy:3128`).
public struct ProxySettings: Sendable, Hashable, CustomStringConvertible {
    /// How a transport talks to the proxy, named by the proxy URL's scheme.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An HTTP proxy (forwarding, and `CONNECT` for `https://` requests).
        case http
        /// SOCKS5 with host names resolved by the client.
        case socks5
        /// SOCKS5 with host names resolved by the proxy.
        case socks5h
    }

    /// The proxy, such as `http://127.0.0.1:3128` or `socks5h://127.0.0.1:1080`.
    public let url: URL
    /// How to talk to the proxy, from the URL's scheme.
    package let kind: Kind
    /// Hosts that bypass the proxy, with `NO_PROXY` semantics: `"*"` matches every host;
    /// `"example.com"` or `".example.com"` matches that domain and its subdomains; an IP
    /// address matches itself; `"host:port"` (or `"[::1]:port"`) matches only that port.
    /// Matching ignores case.
    public let noProxy: [String]

    /// Creates proxy settings.
    ///
    /// - Parameters:
    ///   - url: the proxy's URL: `http`, `socks5` or `socks5h` scheme, a host, and a port
    ///     (1080 is assumed for SOCKS, 80 for HTTP, when none is given).
    ///   - noProxy: hosts that connect directly (see `noProxy`).
    /// - Throws: `CourierError` `.invalidConfiguration` for a URL without a host, with a path,
    ///   or with a scheme that is not supported (`https` proxies, which need TLS to the proxy
    ///   itself, are refused), and for an empty or malformed `noProxy` entry.
    public init(url: URL, noProxy: [String] = []) throws(CourierError) {
        let scheme = url.scheme?.lowercased() ?? ""
        guard let kind = Kind(rawValue: scheme) else {
            throw CourierError(
                .invalidConfiguration,
                "unsupported proxy scheme \(scheme.debugDescription) in \(Redaction.redact(url: url)); expected one of "
                    + Kind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard let host = url.host, !host.isEmpty else {
            throw CourierError(
                .invalidConfiguration, "the proxy URL \(Redaction.redact(url: url)) has no host")
        }
        guard url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil else {
            throw CourierError(
                .invalidConfiguration,
                "the proxy URL \(Redaction.redact(url: url)) has a path or query; give scheme, host and port only"
            )
        }
        self.url = url
        self.kind = kind
        self.noProxy = try noProxy.map { entry throws(CourierError) in
            try Self.checkedEntry(entry)
        }
    }

    /// Creates proxy settings from the proxy's URL as text.
    ///
    /// - Parameters:
    ///   - url: the proxy's URL, such as `"http://127.0.0.1:3128"`.
    ///   - noProxy: hosts that connect directly (see `noProxy`).
    /// - Throws: `CourierError` `.invalidConfiguration` for text that is not a URL, and
    ///   everything `init(url:noProxy:)` throws.
    public init(url: String, noProxy: [String] = []) throws(CourierError) {
        guard let parsed = URL(string: url.trimmingWhitespace()) else {
            throw CourierError(.invalidConfiguration, "the proxy URL \(url.debugDescription) is not a URL")
        }
        try self.init(url: parsed, noProxy: noProxy)
    }

    /// The proxy's host.
    package var host: String { url.host ?? "" }

    /// The proxy's port, or the kind's usual one when the URL gives none.
    package var port: Int { url.port ?? (kind == .http ? 80 : 1080) }

    /// Whether a request to `url` connects directly rather than through the proxy.
    ///
    /// - Parameter url: the request's URL.
    /// - Returns: true when its host (and port) match an entry of `noProxy`.
    package func bypasses(_ url: URL) -> Bool {
        guard let rawHost = url.host?.lowercased() else { return false }
        let host = Self.unbracketed(rawHost)
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return noProxy.contains { Self.entry($0, matchesHost: host, port: port) }
    }

    public var description: String {
        // Never print credentials.
        var parts = URLComponents(url: url, resolvingAgainstBaseURL: false)
        if parts?.password != nil { parts?.password = "***" }
        let shown = parts?.string ?? "\(kind.rawValue)://\(host):\(port)"
        return noProxy.isEmpty ? shown : "\(shown) (not for \(noProxy.joined(separator: ",")))"
    }

    /// One `noProxy` entry, lowercased and trimmed.
    private static func checkedEntry(_ entry: String) throws(CourierError) -> String {
        let trimmed = entry.trimmingWhitespace().lowercased()
        guard !trimmed.isEmpty, !trimmed.contains(where: { $0 == "/" || $0 == "," || $0.isWhitespace }) else {
            throw CourierError(
                .invalidConfiguration,
                "the noProxy entry \(entry.debugDescription) is not a host, a domain, \"*\" or host:port")
        }
        if let (_, port) = split(trimmed), port == nil {
            throw CourierError(
                .invalidConfiguration, "the noProxy entry \(entry.debugDescription) has a bad port")
        }
        return trimmed
    }

    /// Whether one (checked, lowercased) entry matches `host` (lowercased, unbracketed) on `port`.
    static func entry(_ entry: String, matchesHost host: String, port: Int) -> Bool {
        if entry == "*" { return true }
        var pattern = entry
        if let (name, entryPort) = split(entry) {
            guard entryPort == port else { return false }
            pattern = name
        }
        pattern = unbracketed(pattern)
        while pattern.hasPrefix(".") { pattern.removeFirst() }
        if pattern.hasSuffix(".") { pattern.removeLast() }
        var name = host
        if name.hasSuffix(".") { name.removeLast() }
        guard !pattern.isEmpty else { return false }
        if name == pattern { return true }
        // A domain matches its subdomains; an IP address only itself.
        return !isIPAddress(pattern) && !isIPAddress(name) && name.hasSuffix("." + pattern)
    }

    /// Splits `host:port` or `[v6]:port` into its parts; nil when the entry has no port
    /// (a bare IPv6 address has colons but no port). The port is nil when it is malformed.
    private static func split(_ entry: String) -> (host: String, port: Int?)? {
        if entry.hasPrefix("[") {
            guard let close = entry.firstIndex(of: "]") else { return nil }
            let rest = entry[entry.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            return (
                String(entry[...close]), Int(rest.dropFirst()).flatMap { (1...65535).contains($0) ? $0 : nil }
            )
        }
        let colons = entry.filter { $0 == ":" }.count
        guard colons == 1, let colon = entry.firstIndex(of: ":") else { return nil }
        let port = Int(entry[entry.index(after: colon)...])
        return (String(entry[..<colon]), port.flatMap { (1...65535).contains($0) ? $0 : nil })
    }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    private static func isIPAddress(_ text: String) -> Bool {
        text.contains(":")
            || (text.split(separator: ".").count == 4 && text.allSatisfy { $0.isNumber || $0 == "." })
    }
}
