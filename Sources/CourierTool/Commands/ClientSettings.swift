import Courier
import CourierConfiguration
import CourierCookies
import CourierCurl
import CourierURLSession
import Foundation

/// The options every command that calls an API takes (`send`, `call`), declared once.
package enum ClientOptions {
    package static let transport = Option.value(
        "--transport", placeholder: "NAME",
        help: "urlsession or curl (default: courier.json, $COURIER_TRANSPORT, then urlsession)")
    package static let config = Option.value(
        "--config", placeholder: "FILE", help: "configuration file (default ./courier.json when present)")
    package static let retry = Option.value(
        "--retry", placeholder: "N",
        help: "retry up to N times (default: courier.json's retry.maxAttempts - 1)")
    package static let noRetry = Option.flag("--no-retry", help: "send once, whatever courier.json says")

    package static let all = [transport, config, retry, noRetry]
}

/// Which configuration a command uses: `--config` (or ./courier.json), then
/// `$COURIER_TRANSPORT`, then `--transport`, `--retry` and `--no-retry`, each overriding the
/// one before.
package struct ClientSettings {
    /// The transports `courier` links, which `courier.json`, `COURIER_TRANSPORT` and `--transport` choose from.
    package static let transports: [any NamedTransport.Type] = [CurlTransport.self, URLSessionTransport.self]

    package var configuration: Configuration

    /// - Throws: `CourierError` for a bad configuration file; `UsageError` for a bad option.
    package init(parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws
    {
        var configuration = Configuration()
        if let path = parsed.value(ClientOptions.config) {
            configuration = try Configuration.load(from: URL(fileURLWithPath: path))
        } else if FileManager.default.fileExists(atPath: Configuration.fileName) {
            configuration = try Configuration.load(from: URL(fileURLWithPath: Configuration.fileName))
        }
        configuration = try configuration.applyingEnvironment(environment)
        if let name = parsed.value(ClientOptions.transport) {
            guard let kind = try? TransportKind(name: name),
                Self.transports.contains(where: { $0.transportName == kind.name })
            else {
                throw UsageError("--transport takes curl or urlsession, not '\(name)'")
            }
            configuration.transport = kind
        }
        if let retries = try parsed.int(ClientOptions.retry) {
            guard !parsed.has(ClientOptions.noRetry) else {
                throw UsageError("use --retry or --no-retry, not both")
            }
            guard (0...99).contains(retries) else {
                throw UsageError("--retry takes 0 to 99, not \(retries)")
            }
            configuration.retry.maxAttempts = retries + 1
        } else if parsed.has(ClientOptions.noRetry) {
            configuration.retry.maxAttempts = 1
        }
        self.configuration = configuration
    }

    /// The transport and manager a command sends through: the one way `send` and `call` build
    /// them, from the configuration (base URL, default headers, limits, timeouts, retry).
    /// - Parameters:
    ///   - validation: which statuses count as success.
    ///   - eventMonitors: receive each attempt, response and retry.
    ///   - cookieJar: the cookies for this command; default a jar in memory for its requests.
    /// - Throws: `CourierError` for a transport this build does not know.
    package func makeClient(
        validation: Validation = .default, eventMonitors: [any EventMonitor] = [],
        cookieJar: CookieJar = CookieJar()
    ) throws -> (manager: NetworkManager, transport: any Transport) {
        let transport = try configuration.makeTransport(choosingFrom: Self.transports)
        let manager = NetworkManager(
            configuration: configuration, transport: transport, validation: validation,
            eventMonitors: eventMonitors, cookieJar: cookieJar)
        return (manager, transport)
    }
}

/// Renders a timing breakdown as aligned lines, for `--verbose`.
package enum TimingReport {
    package static func render(_ timings: Timings, version: String?) -> String {
        let rows: [(String, TimeInterval?)] = [
            ("dns", timings.dnsLookup), ("connect", timings.connect), ("tls", timings.tlsHandshake),
            ("first byte", timings.firstByte), ("redirects", timings.redirect), ("total", timings.total),
        ]
        var lines = ["timings (\(version ?? "HTTP")):"]
        for (label, value) in rows {
            let shown = value.map { String(format: "%.3f ms", $0 * 1000) } ?? "n/a"
            lines.append("  " + label.padding(toLength: 11, withPad: " ", startingAt: 0) + shown)
        }
        return lines.joined(separator: "\n")
    }
}
