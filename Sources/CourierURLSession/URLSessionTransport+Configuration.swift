import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport {
    /// Settings for a `URLSessionTransport`, checked when the transport is made: a setting
    /// URLSession cannot honour on this platform is refused with a `CourierError`, never
    /// ignored.
    public struct Configuration: Sendable, Hashable {
        /// The connection pool size per host. Default 6.
        public var maximumConnectionsPerHost: Int
        /// An explicit proxy. On Linux, FoundationNetworking ignores
        /// `URLSessionConfiguration.connectionProxyDictionary`, so a proxy is refused there
        /// (its libcurl still follows the `http_proxy`/`https_proxy`/`no_proxy` environment
        /// variables); use `CurlTransport` for an explicit proxy. Elsewhere HTTP and SOCKS
        /// proxies go into `connectionProxyDictionary`.
        public var proxy: ProxySettings?
        /// Public keys to pin. URLSession gives no hook to check a server's key on Linux, so
        /// any pin is refused; use `CurlTransport` for pinning.
        public var pinnedPublicKeys: [PublicKeyPin]

        /// Creates settings.
        ///
        /// - Parameters:
        ///   - maximumConnectionsPerHost: the connection pool size per host.
        ///   - proxy: an explicit proxy (refused on Linux).
        ///   - pinnedPublicKeys: public keys to pin (refused).
        public init(
            maximumConnectionsPerHost: Int = 6, proxy: ProxySettings? = nil,
            pinnedPublicKeys: [PublicKeyPin] = []
        ) {
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.proxy = proxy
            self.pinnedPublicKeys = pinnedPublicKeys
        }

        /// Refuses what this platform's URLSession cannot do.
        /// - Throws: `CourierError` `.invalidConfiguration` naming the setting.
        func check() throws(CourierError) {
            guard maximumConnectionsPerHost > 0 else {
                throw CourierError(.invalidConfiguration, "maximumConnectionsPerHost must be at least 1")
            }
            if !pinnedPublicKeys.isEmpty {
                throw CourierError(
                    .invalidConfiguration,
                    "URLSessionTransport cannot pin public keys (URLSession has no server-trust hook on Linux); use CurlTransport"
                )
            }
            #if canImport(FoundationNetworking)
                if let proxy {
                    throw CourierError(
                        .invalidConfiguration,
                        "URLSessionTransport cannot use the proxy \(proxy) on Linux: FoundationNetworking ignores connectionProxyDictionary; use CurlTransport, or the http_proxy environment variables"
                    )
                }
            #endif
        }

        /// Puts the proxy into a session configuration (platforms whose URLSession reads it).
        func apply(to configuration: URLSessionConfiguration) {
            #if !canImport(FoundationNetworking)
                if let proxy { configuration.connectionProxyDictionary = Self.dictionary(for: proxy) }
            #endif
        }

        /// CFNetwork's proxy dictionary keys, by their string values.
        static func dictionary(for proxy: ProxySettings) -> [AnyHashable: Any] {
            var dictionary: [AnyHashable: Any] = [:]
            if proxy.kind == .http {
                for prefix in ["HTTP", "HTTPS"] {
                    dictionary["\(prefix)Enable"] = 1
                    dictionary["\(prefix)Proxy"] = proxy.host
                    dictionary["\(prefix)Port"] = proxy.port
                }
            } else {
                dictionary["SOCKSEnable"] = 1
                dictionary["SOCKSProxy"] = proxy.host
                dictionary["SOCKSPort"] = proxy.port
            }
            // CFNetwork's exceptions take "*.domain" for subdomains.
            dictionary["ExceptionsList"] = proxy.noProxy.flatMap { entry -> [String] in
                let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
                return entry == "*" ? ["*"] : [domain, "*." + domain]
            }
            return dictionary
        }
    }

    /// Creates a transport with `configuration`, refusing what URLSession cannot do here.
    ///
    /// - Parameter configuration: pool size, proxy and pins.
    /// - Throws: `CourierError` `.invalidConfiguration` for a pin (never supported), a proxy
    ///   on Linux, or a pool size below 1.
    public convenience init(configuration: Configuration) throws(CourierError) {
        try configuration.check()
        self.init(checked: configuration)
    }
}
