import Courier
import Foundation
import Synchronization

/// The problems found while reading one configuration, so that a file with several is reported
/// whole instead of one fix at a time.
///
/// `Configuration.decode(_:source:)` puts one in its decoder's `userInfo`; the settings'
/// `init(from:)`s record each problem there and read on, a setting with a problem taking its
/// default. A decoder without one (a plain `JSONDecoder`) gets the first problem thrown, as
/// `Decodable` expects.
final class ConfigurationProblems: Sendable {
    /// Where the collector sits in a decoder's `userInfo`.
    static let key = CodingUserInfoKey(rawValue: "courier.configuration.problems")!

    private let found = Mutex<[CourierError]>([])

    /// Every problem recorded, in the order found.
    var all: [CourierError] { found.withLock { $0 } }

    /// Records `problem` when `decoder` collects problems.
    /// - Throws: `problem`, when it does not.
    static func report(_ problem: CourierError, in decoder: any Decoder) throws {
        guard let problems = decoder.userInfo[key] as? ConfigurationProblems else { throw problem }
        problems.found.withLock { $0.append(problem) }
    }

    /// What `read` reads; nil when the value is absent, or when reading it failed and `decoder`
    /// collects problems (the failure is recorded).
    /// - Throws: what `read` throws, when `decoder` does not collect problems.
    static func read<T>(in decoder: any Decoder, _ read: () throws -> T?) throws -> T? {
        do {
            return try read()
        } catch {
            try report(problem(from: error), in: decoder)
            return nil
        }
    }

    /// `error` as a configuration problem, in the words `courier.json`'s messages use: a decoding
    /// error names the path and what was wrong there.
    static func problem(from error: any Error) -> CourierError {
        switch error {
        case let error as CourierError where error.code == .invalidConfiguration:
            return error
        case let error as DecodingError:
            let (path, message) = ResponseDecoding.describe(error)
            let location = path.isEmpty ? "" : " at \(path)"
            return CourierError(
                .invalidConfiguration, "invalid configuration\(location): \(message)", codingPath: path,
                underlying: error)
        default:
            return CourierError(.invalidConfiguration, "invalid configuration: \(error)", underlying: error)
        }
    }

    /// One error for `problems` (at least one) found in `source`: the problem itself when there is
    /// one, else a line for each, in the order found.
    static func failure(_ problems: [CourierError], source: String) -> CourierError {
        guard problems.count > 1 else {
            let problem = problems[0]
            return CourierError(
                .invalidConfiguration, "\(source): \(problem.message)", codingPath: problem.codingPath,
                underlying: problem.underlying)
        }
        let lines = problems.map { "  - \($0.message)" }
        return CourierError(
            .invalidConfiguration, "\(source): \(problems.count) problems:\n" + lines.joined(separator: "\n"),
            codingPath: problems[0].codingPath)
    }
}
