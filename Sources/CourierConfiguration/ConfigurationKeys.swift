import Courier
import Foundation

/// Refuses keys a configuration object does not know, so that a typo such as `"transprt"`
/// fails loudly instead of silently taking the default.
enum ConfigurationKeys {
    /// Any key, for reading the keys an object actually has.
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { nil }
    }

    /// The duration given in seconds under `name`, if present (`validate` checks its range).
    /// - Throws: `DecodingError` when it is not a number; `CourierError`
    ///   (`.invalidConfiguration`) for one too large to be a duration.
    static func seconds(in container: KeyedDecodingContainer<AnyKey>, _ name: String) throws -> Duration? {
        guard let value = try container.decodeIfPresent(Double.self, forKey: AnyKey(name)) else { return nil }
        guard abs(value) < 1e15, let duration = Duration.seconds(exactly: value) else {
            let path = ResponseDecoding.pathString(container.codingPath + [AnyKey(name)])
            throw CourierError(.invalidConfiguration, "\(path) is too large, got \(value)", codingPath: path)
        }
        return duration
    }

    /// Writes each duration that is present as a number of seconds under its name.
    static func encodeSeconds(_ values: KeyValuePairs<String, Duration?>, to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        for (name, value) in values {
            if let value { try container.encode(value.timeInterval, forKey: AnyKey(name)) }
        }
    }

    /// Checks that the object `decoder` reads has only `known` (or `alsoAccepted`) keys, and
    /// reports each unknown key (in sorted order) by its path, with the closest known key when one
    /// is near (see `ConfigurationProblems`).
    /// - Throws: `CourierError` with code `.invalidConfiguration` naming the first unknown key,
    ///   when `decoder` does not collect problems.
    static func check(_ decoder: any Decoder, known: [String], alsoAccepted: [String] = []) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let accepted = Set(known + alsoAccepted)
        let unknown = container.allKeys.map(\.stringValue).filter { !accepted.contains($0) }.sorted()
        for key in unknown {
            let path = ResponseDecoding.pathString(decoder.codingPath + [AnyKey(key)])
            let hint =
                suggestion(for: key, among: known).map { "did you mean \($0.debugDescription)?" }
                ?? "known keys: " + known.sorted().joined(separator: ", ")
            try ConfigurationProblems.report(
                CourierError(
                    .invalidConfiguration, "unknown key \(path.debugDescription); \(hint)", codingPath: path),
                in: decoder)
        }
    }

    /// The known key closest to `key` by edit distance (ignoring case), when it is close
    /// enough to be a typo: at most a third of the longer name, and at least 1.
    static func suggestion(for key: String, among known: [String]) -> String? {
        let scored = known.map { ($0, editDistance(key.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(1, max(key.count, best.0.count) / 3) ? best.0 : nil
    }

    /// Levenshtein distance: insertions, deletions and substitutions, one each.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            previous = current
        }
        return previous[b.count]
    }
}
