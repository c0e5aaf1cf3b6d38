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
    ///   keys), with the line and column of the first fault; else naming every problem the
    ///   configuration has (unknown keys, wrong types, values out of range), one line each.
    public static func decode(_ data: Data, source: String = fileName) throws(CourierError) -> Configuration {
        // Foundation's parser accepts some JSON5 on some platforms; another tool reading the file would not.
        do {
            try JSONSyntax.check(data)
        } catch {
            throw CourierError(
                .invalidConfiguration, "\(source): invalid configuration: \(error)", underlying: error)
        }
        let problems = ConfigurationProblems()
        let decoder = JSONDecoder()
        decoder.userInfo[ConfigurationProblems.key] = problems
        let found: [CourierError]
        do {
            let configuration = try decoder.decode(Configuration.self, from: data)
            found = problems.all + configuration.rangeProblems
            if found.isEmpty { return configuration }
        } catch {
            // Only what stops the whole file (its top level is not an object, say) is thrown.
            found = problems.all + [ConfigurationProblems.problem(from: error)]
        }
        throw ConfigurationProblems.failure(found, source: source)
    }

    /// Checks that values are in range.
    /// - Parameter source: where the values came from, for messages.
    /// - Throws: `CourierError` with code `.invalidConfiguration` naming every bad field.
    public func validate(source: String = fileName) throws(CourierError) {
        let problems = rangeProblems
        guard problems.isEmpty else { throw ConfigurationProblems.failure(problems, source: source) }
    }

    /// Each value out of range, naming its field.
    var rangeProblems: [CourierError] {
        var problems: [CourierError] = []
        func fail(_ path: String, _ message: String) {
            problems.append(CourierError(.invalidConfiguration, "\(path) \(message)", codingPath: path))
        }
        if let baseURL,
            !["http", "https"].contains(baseURL.scheme?.lowercased()) || baseURL.host?.isEmpty != false
        {
            fail("baseURL", "must be an absolute http or https URL, got \(baseURL.absoluteString)")
        }
        if timeouts.connect <= .zero {
            fail(
                "timeouts.connect",
                "must be a positive number of seconds, got \(timeouts.connect.timeInterval)")
        }
        if timeouts.idle <= .zero {
            fail("timeouts.idle", "must be a positive number of seconds, got \(timeouts.idle.timeInterval)")
        }
        if let total = timeouts.total, total <= .zero {
            fail("timeouts.total", "must be a positive number of seconds, got \(total.timeInterval)")
        }
        if !(1...100).contains(retry.maxAttempts) {
            fail("retry.maxAttempts", "must be between 1 and 100, got \(retry.maxAttempts)")
        }
        if retry.baseDelay < .zero {
            fail("retry.baseDelay", "must be zero or more seconds, got \(retry.baseDelay.timeInterval)")
        }
        if retry.maxDelay < retry.baseDelay {
            fail("retry.maxDelay", "must be at least retry.baseDelay, got \(retry.maxDelay.timeInterval)")
        }
        if maxResponseBytes <= 0 {
            fail("maxResponseBytes", "must be positive, got \(maxResponseBytes)")
        }
        for (name, value) in defaultHeaders.sorted(by: { $0.key < $1.key }) {
            do {
                try HTTPHeaders.validate(name: name, value: value)
            } catch {
                fail("defaultHeaders.\(name)", error.message)
            }
        }
        return problems
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
