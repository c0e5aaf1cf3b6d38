import Courier
import CourierJSON
import Foundation

extension Configuration {
    /// How response bodies are decoded.
    ///
    /// In `courier.json`: `{ "keys": "convertFromSnakeCase", "dates": "secondsSince1970" }`.
    /// The defaults are those of `CourierJSONDecoder.courier`: keys as they are, ISO 8601 dates.
    public struct Decoding: Codable, Sendable, Hashable {
        /// How JSON keys map to property names.
        public enum Keys: String, Codable, Sendable, CaseIterable {
            /// Keys as they are.
            case useDefaultKeys
            /// `user_name` decodes into `userName`.
            case convertFromSnakeCase
        }

        /// How JSON values decode into `Date`s.
        public enum Dates: String, Codable, Sendable, CaseIterable {
            /// ISO 8601 text, such as `2026-06-01T10:00:00Z`.
            case iso8601
            /// A number of seconds since 1970.
            case secondsSince1970
            /// A number of milliseconds since 1970.
            case millisecondsSince1970
            /// `Date`'s own `Decodable`: seconds since 2001.
            case deferredToDate
        }

        /// How keys map. Default `.useDefaultKeys`.
        public var keys: Keys
        /// How dates decode. Default `.iso8601`.
        public var dates: Dates

        private enum CodingKeys: String, CodingKey {
            case keys, dates
        }

        /// Creates decoding settings.
        public init(keys: Keys = .useDefaultKeys, dates: Dates = .iso8601) {
            self.keys = keys
            self.dates = dates
        }

        /// Reads decoding settings; missing fields take their defaults.
        /// - Throws: `DecodingError` naming the choices for an unknown strategy; `CourierError`
        ///   (`.invalidConfiguration`) for an unknown key.
        public init(from decoder: any Decoder) throws {
            try ConfigurationKeys.check(decoder, known: ["keys", "dates"])
            let container = try decoder.container(keyedBy: CodingKeys.self)
            keys =
                try ConfigurationProblems.read(in: decoder) {
                    try Self.choice(Keys.self, .keys, in: container)
                }
                ?? .useDefaultKeys
            dates =
                try ConfigurationProblems.read(in: decoder) {
                    try Self.choice(Dates.self, .dates, in: container)
                }
                ?? .iso8601
        }

        private static func choice<Choice: RawRepresentable & CaseIterable>(
            _ type: Choice.Type, _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>
        ) throws -> Choice? where Choice.RawValue == String {
            guard let name = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let choice = Choice(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription: "unknown strategy \(name.debugDescription); expected one of "
                        + Choice.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return choice
        }

        /// A `CourierJSONDecoder` with these strategies.
        public var decoder: CourierJSONDecoder {
            var decoder = CourierJSONDecoder()
            switch keys {
            case .useDefaultKeys: decoder.keyDecodingStrategy = .useDefaultKeys
            case .convertFromSnakeCase: decoder.keyDecodingStrategy = .convertFromSnakeCase
            }
            switch dates {
            case .iso8601: decoder.dateDecodingStrategy = .iso8601
            case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
            case .millisecondsSince1970: decoder.dateDecodingStrategy = .millisecondsSince1970
            case .deferredToDate: decoder.dateDecodingStrategy = .deferredToDate
            }
            return decoder
        }
    }
}
