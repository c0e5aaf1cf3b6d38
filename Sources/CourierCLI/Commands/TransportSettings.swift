import Courier
import CourierCurl
import Foundation

/// Which configuration and transport a command uses: `--config` (or ./courier.json), then
/// `$COURIER_TRANSPORT`, then `--transport`, each overriding the one before.
struct TransportSettings {
    var configuration: Configuration

    init(parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws
    {
        var configuration = Configuration()
        if let path = parsed.value("--config") {
            configuration = try Configuration.load(from: URL(fileURLWithPath: path))
        } else if FileManager.default.fileExists(atPath: "courier.json") {
            configuration = try Configuration.load(from: URL(fileURLWithPath: "courier.json"))
        }
        configuration = try configuration.applyingEnvironment(environment)
        if let name = parsed.value("--transport") {
            guard let kind = try? TransportKind(name: name) else {
                throw UsageError("--transport takes curl or urlsession, not '\(name)'")
            }
            configuration.transport = kind
        }
        self.configuration = configuration
    }
}

/// Renders a timing breakdown as aligned lines, for `--verbose`.
enum TimingReport {
    static func render(_ timings: Timings, version: String?) -> String {
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
