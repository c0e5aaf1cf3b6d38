import Courier
import Foundation

extension CurlTransport {
    /// Settings that apply to every request a `CurlTransport` sends. Per-request limits
    /// (timeouts, redirects, body size) are in `TransferOptions`.
    public struct Configuration: Sendable, Hashable {
        /// A PEM file of CA certificates to trust instead of the system's
        /// (`CURLOPT_CAINFO`). Peer and host verification stay on either way.
        public var caBundle: URL?
        /// Whether to offer HTTP/2 over TLS (`CURL_HTTP_VERSION_2TLS`). Plain HTTP always
        /// uses HTTP/1.1.
        public var preferHTTP2: Bool
        /// The most simultaneous connections to one host (`CURLMOPT_MAX_HOST_CONNECTIONS`);
        /// further transfers wait for one. 0 means no limit.
        public var maxConnectionsPerHost: Int
        /// How many idle connections to keep for reuse (`CURLMOPT_MAXCONNECTS`).
        public var maxCachedConnections: Int
        /// The `User-Agent` sent when the request has none.
        public var userAgent: String
        /// The proxy for every request (`CURLOPT_PROXY`), except hosts its `noProxy` lists,
        /// which connect directly. nil (the default) leaves libcurl to the `http_proxy`,
        /// `https_proxy`, `all_proxy` and `no_proxy` environment variables. They are read when
        /// the transport is created: when none of the first three is set then, its requests
        /// connect directly without looking them up again.
        public var proxy: ProxySettings?
        /// Public keys the server must present one of (`CURLOPT_PINNEDPUBLICKEY`); a TLS
        /// connection with another key fails with `.tls`. Empty (the default) pins nothing.
        /// Certificate verification stays on either way.
        public var pinnedPublicKeys: [PublicKeyPin]

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - caBundle: a PEM file of CA certificates to trust instead of the system's.
        ///   - preferHTTP2: whether to offer HTTP/2 over TLS.
        ///   - maxConnectionsPerHost: the most simultaneous connections to one host; 0 for no limit.
        ///   - maxCachedConnections: how many idle connections to keep.
        ///   - userAgent: the default `User-Agent`; nil for `Courier libcurl/<version>`.
        ///   - proxy: an explicit proxy; nil follows the environment.
        ///   - pinnedPublicKeys: public keys a TLS server must present one of.
        public init(
            caBundle: URL? = nil,
            preferHTTP2: Bool = true,
            maxConnectionsPerHost: Int = 8,
            maxCachedConnections: Int = 32,
            userAgent: String? = nil,
            proxy: ProxySettings? = nil,
            pinnedPublicKeys: [PublicKeyPin] = []
        ) {
            self.caBundle = caBundle
            self.preferHTTP2 = preferHTTP2
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxCachedConnections = maxCachedConnections
            self.userAgent =
                userAgent ?? "Courier \(CurlInfo.version.split(separator: " ").first ?? "libcurl")"
            self.proxy = proxy
            self.pinnedPublicKeys = pinnedPublicKeys
        }
    }
}
