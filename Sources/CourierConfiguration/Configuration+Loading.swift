import Courier
import CourierPrimitives
import Foundation

extension Configuration {
    /// The usual file name.
    public static let fileName = "courier.json"

    /// Loads and checks a configuration file.
    ///
    /// - Parameter url: the file, usually `courier.json`.
    /// - Throws: `CourierError` with code `.invalidConfiguration` saying what is wrong: the
    ///   file is missing or unreadable, the text is not strict JSON (with the line and column),
    ///   a key is unknown (with its path and the closest known key), a field has the wrong
    ///   type (with its path, such as `retry.maxAttempts`), or a value is out of range.
    public static func load(from url: URL) throws(CourierError) -> Configuration {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let missing = !FileManager.default.fileExists(atPath: url.path)
            throw CourierError(
                .invalidConfiguration,
                missing
                    ? "configuration file not found: \(url.path)"
                    : "cannot read configuration file \(url.path)",
                underlying: error)
        }
        return try decode(data, source: url.path)
    }

    /// Decodes and checks configuration JSON.
    /// - Parameters:
    ///   - data: the JSON.
    ///   - source: where it came from, for messages.
    /// - Throws: `CourierError` with code `.invalidConfiguration`; for text that is not JSON to the
    ///   letter (RFC 8259: no trailing commas, comments, single quotes, `NaN`, leading zeros, unquoted
    ///   keys), with the line and column of the first fault.
    public static func decode(_ data: Data, source: String = fileName) throws(CourierError) -> Configuration {
        // Foundation's parser accepts some JSON5 on some platforms; another tool reading the file would not.
        do {
            try JSONSyntax.check(data)
        } catch {
            throw CourierError(
                .invalidConfiguration, "\(source): invalid configuration: \(error)", underlying: error)
        }
        let configuration: Configuration
        do {
            configuration = try JSONDecoder().decode(Configuration.self, from: data)
        } catch let error as DecodingError {
            let (path, message) = ResponseDecoding.describe(error)
            let location = path.isEmpty ? "" : " at \(path)"
            throw CourierError(
                .invalidConfiguration, "\(source): invalid configuration\(location): \(message)",
                codingPath: path, underlying: error)
        } catch let error as CourierError where error.code == .invalidConfiguration {
            // An unknown key, or two names for one setting.
            throw CourierError(
                .invalidConfiguration, "\(source): \(error.message)", codingPath: error.codingPath)
        } catch {
            throw CourierError(
                .invalidConfiguration, "\(source): invalid configuration: \(error)", underlying: error)
        }
        try configuration.validate(source: source)
        return configuration
    }

    /// Checks that values are in range.
    /// - Parameter source: where the values came from, for messages.
    /// - Throws: `CourierError` with code `.invalidConfiguration` naming the bad field.
    public func validate(source: String = fileName) throws(CourierError) {
        func fail(_ path: String, _ message: String) -> CourierError {
            CourierError(.invalidConfiguration, "\(source): \(path) \(message)", codingPath: path)
        }
        if let baseURL {
            guard let scheme = baseURL.scheme?.lowercased(), scheme == "http" || scheme == "https",
                baseURL.host?.isEmpty == false
            else {
                throw fail("baseURL", "must be an absolute http or https URL, got \(baseURL.absoluteString)")
            }
        }
        guard timeouts.connect > .zero else {
            throw fail(
                "timeouts.connect",
                "must be a positive number of seconds, got \(timeouts.connect.timeInterval)")
        }
        guard timeouts.idle > .zero else {
            throw fail(
                "timeouts.idle", "must be a positive number of seconds, got \(timeouts.idle.timeInterval)")
        }
        if let total = timeouts.total {
            guard total > .zero else {
                throw fail(
                    "timeouts.total", "must be a positive number of seconds, got \(total.timeInterval)")
            }
        }
        guard (1...100).contains(retry.maxAttempts) else {
            throw fail("retry.maxAttempts", "must be between 1 and 100, got \(retry.maxAttempts)")
        }
        guard retry.baseDelay >= .zero else {
            throw fail("retry.baseDelay", "must be zero or more seconds, got \(retry.baseDelay.timeInterval)")
        }
        guard retry.maxDelay >= retry.baseDelay else {
            throw fail(
                "retry.maxDelay", "must be at least retry.baseDelay, got \(retry.maxDelay.timeInterval)")
        }
        guard maxResponseBytes > 0 else {
            throw fail("maxResponseBytes", "must be positive, got \(maxResponseBytes)")
        }
        for (name, value) in defaultHeaders.sorted(by: { $0.key < $1.key }) {
            do {
                try RequestBuilding.validateHeader(name: name, value: value)
            } catch {
                throw fail("defaultHeaders.\(name)", (error as? CourierError)?.message ?? "\(error)")
            }
        }
    }

    /// The name of the environment variable that overrides `transport`.
    public static let transportEnvironmentKey = "COURIER_TRANSPORT"

    /// This configuration with environment overrides applied: `COURIER_TRANSPORT`
    /// (`urlsession` or `curl`) replaces `transport`. An empty value is ignored.
    /// - Parameter environment: the variables; default the process environment.
    /// - Throws: `CourierError` with code `.invalidConfiguration` for an unknown transport.
    public func applyingEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CourierError) -> Configuration {
        var result = self
        if let name = environment[Self.transportEnvironmentKey], !name.trimmingWhitespace().isEmpty {
            do {
                result.transport = try TransportKind(name: name)
            } catch {
                throw CourierError(
                    .invalidConfiguration, "\(Self.transportEnvironmentKey): \(error.message)")
            }
        }
        return result
    }
}
