import Courier
import CourierConfiguration
import CourierURLSession
import Foundation

/// Makes the transport a configuration names, so that switching between libcurl and
/// URLSession is a configuration change (`"transport": "curl"` in `courier.json`,
/// `COURIER_TRANSPORT=curl`, or `--transport curl`).
///
/// ```swift
/// let configuration = try Configuration.load(from: url).applyingEnvironment()
/// let transport = try TransportFactory.make(for: configuration)
/// defer { Task { await transport.shutdown() } }
/// ```
public enum TransportFactory {
    /// Makes the transport `kind` names.
    ///
    /// - Parameters:
    ///   - kind: `.curl` or `.urlsession`.
    ///   - curl: settings for a `CurlTransport` (ignored for URLSession).
    /// - Returns: a `CurlTransport` for `.curl`, a `URLSessionTransport` for `.urlsession`.
    /// - Throws: `CourierError.Code.invalidConfiguration` for a kind this build does not know.
    public static func make(
        kind: TransportKind, curl: CurlTransport.Configuration = CurlTransport.Configuration()
    ) throws -> any Transport {
        switch kind {
        case .curl: return CurlTransport(configuration: curl)
        case .urlsession: return URLSessionTransport()
        default:
            throw CourierError(.invalidConfiguration, "no transport named \(kind.name.debugDescription)")
        }
    }

    /// Makes the transport `configuration.transport` names.
    ///
    /// - Parameters:
    ///   - configuration: a loaded configuration (apply the environment first).
    ///   - curl: settings for a `CurlTransport`; `configuration.proxy` fills in its proxy
    ///     when it has none.
    /// - Returns: the transport.
    /// - Throws: `CourierError.Code.invalidConfiguration` for an unknown kind, or for a proxy
    ///   with URLSession on Linux (FoundationNetworking cannot use one).
    public static func make(
        for configuration: Configuration, curl: CurlTransport.Configuration = CurlTransport.Configuration()
    ) throws -> any Transport {
        guard let proxy = configuration.proxy else {
            return try make(kind: configuration.transport, curl: curl)
        }
        switch configuration.transport {
        case .curl:
            var curl = curl
            if curl.proxy == nil { curl.proxy = proxy }
            return CurlTransport(configuration: curl)
        case .urlsession:
            return try URLSessionTransport(configuration: .init(proxy: proxy))
        default:
            return try make(kind: configuration.transport, curl: curl)
        }
    }
}

extension Configuration {
    /// Makes the transport this configuration names: `TransportFactory.make(for: self)`.
    ///
    /// - Parameter curl: settings for a `CurlTransport`.
    /// - Returns: the transport.
    /// - Throws: `CourierError.Code.invalidConfiguration` for an unknown kind, or a proxy with
    ///   URLSession on Linux.
    public func makeTransport(
        curl: CurlTransport.Configuration = CurlTransport.Configuration()
    ) throws -> any Transport {
        try TransportFactory.make(for: self, curl: curl)
    }
}
