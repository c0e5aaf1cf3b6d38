// The differential oracle shared by the JSON decoder's tests and its libFuzzer target
// (scripts/fuzz-json.sh compiles this file together with Sources/CourierJSON): every input is
// decoded into a set of model types under several configurations by Foundation's JSONDecoder and
// by CourierJSONDecoder, and the two must agree on the value or on the error.
import Foundation

#if canImport(CourierJSON)
    import CourierJSON
#endif

// MARK: Models

/// An enum with string raw values.
enum DiffKind: String, Codable, Equatable, Sendable {
    case video, photo, text
}

/// An enum with integer raw values.
enum DiffLevel: Int, Codable, Equatable, Sendable {
    case low = 1
    case high = 2
}

struct DiffAuthor: Codable, Equatable, Sendable {
    var name: String
    var handleName: String?
    var followers: Int
}

/// A post with optionals, arrays, a nested object, dates, enums and numbers at their edges.
struct DiffPost: Codable, Equatable, Sendable {
    var id: String
    var likes: Int
    var score: Double
    var ratio: Float?
    var tags: [String]
    var author: DiffAuthor?
    var kind: DiffKind
    var level: DiffLevel?
    var createdAt: Date
    var flags: [Bool]?
    var small: Int8?
    var tiny: UInt8?
    var big: UInt64?
    var wide: Int64?
    var avatar: URL?
    var blob: Data?
    var extra: [String: Int]?
}

/// Dates inside arrays: an ISO 8601 failure reports the decoder's own path, which must be the array's.
struct DiffDates: Codable, Equatable, Sendable {
    var dates: [Date]
    var nested: [[Date]]?
}

struct DiffFeed: Codable, Equatable, Sendable {
    var posts: [DiffPost]
    var nextPage: Int?
    var total: UInt32
}

/// Reads through every container API and records what it saw, so that the two decoders are
/// compared on `allKeys`, `contains`, `decodeNil`, nested containers, `superDecoder`, `count`
/// and `isAtEnd`, and not only on values.
struct DiffProbe: Codable, Equatable, Sendable {
    var keys: [String]
    var containsID: Bool
    var idIsNil: Bool?
    var nestedKeys: [String]?
    var listCount: Int?
    var listValues: [Int?]
    var listAtEnd: Bool?
    var superValue: String?
    var superIndex: Double?

    enum Keys: String, CodingKey {
        case id, author, tags, likes, score, `super`
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DynamicKey.self)
        keys = container.allKeys.map(\.stringValue).sorted()
        let typed = try decoder.container(keyedBy: Keys.self)
        containsID = typed.contains(.id)
        idIsNil = containsID ? try typed.decodeNil(forKey: .id) : nil
        if typed.contains(.author) {
            let nested = try typed.nestedContainer(keyedBy: DynamicKey.self, forKey: .author)
            nestedKeys = nested.allKeys.map(\.stringValue).sorted()
        }
        listValues = []
        if typed.contains(.tags) {
            var list = try typed.nestedUnkeyedContainer(forKey: .tags)
            listCount = list.count
            while !list.isAtEnd {
                if try list.decodeNil() {
                    listValues.append(nil)
                } else {
                    listValues.append(try list.decodeIfPresent(Int.self))
                }
            }
            listAtEnd = list.isAtEnd
            _ = try list.decodeIfPresent(String.self)
        }
        let superDecoder = try typed.superDecoder(forKey: .likes)
        superValue = try? superDecoder.singleValueContainer().decode(String.self)
        let plainSuper = try typed.superDecoder()
        superIndex = try plainSuper.singleValueContainer().decodeNil() ? nil : 1
    }
}

struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

// MARK: Configurations

/// One way of configuring both decoders alike.
struct DiffConfiguration: Sendable {
    var name: String
    var snakeCase = false
    var dates: DateChoice = .deferred
    var nonConforming = false
    var dataDeferred = false

    enum DateChoice: Sendable {
        case deferred, iso8601, seconds, milliseconds, custom
    }

    static let all: [DiffConfiguration] = [
        DiffConfiguration(name: "defaults"),
        DiffConfiguration(name: "iso8601+snake", snakeCase: true, dates: .iso8601),
        DiffConfiguration(name: "seconds+nonConforming", dates: .seconds, nonConforming: true),
        DiffConfiguration(name: "milliseconds+deferredData", dates: .milliseconds, dataDeferred: true),
        DiffConfiguration(name: "custom dates", dates: .custom),
    ]

    static let infoKey = CodingUserInfoKey(rawValue: "courier.test")!

    @Sendable static func customDate(_ decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) { return Date(timeIntervalSince1970: seconds) }
        let text = try container.decode(String.self)
        guard let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not a date (\(decoder.userInfo[infoKey] as? String ?? "-"))"
            )
        }
        return date
    }

    var foundation: JSONDecoder {
        let decoder = JSONDecoder()
        if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        switch dates {
        case .deferred: decoder.dateDecodingStrategy = .deferredToDate
        case .iso8601: decoder.dateDecodingStrategy = .iso8601
        case .seconds: decoder.dateDecodingStrategy = .secondsSince1970
        case .milliseconds: decoder.dateDecodingStrategy = .millisecondsSince1970
        case .custom: decoder.dateDecodingStrategy = .custom(Self.customDate)
        }
        if nonConforming {
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        }
        if dataDeferred { decoder.dataDecodingStrategy = .deferredToData }
        decoder.userInfo[Self.infoKey] = name
        return decoder
    }

    var courier: CourierJSONDecoder {
        var decoder = CourierJSONDecoder()
        if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        switch dates {
        case .deferred: decoder.dateDecodingStrategy = .deferredToDate
        case .iso8601: decoder.dateDecodingStrategy = .iso8601
        case .seconds: decoder.dateDecodingStrategy = .secondsSince1970
        case .milliseconds: decoder.dateDecodingStrategy = .millisecondsSince1970
        case .custom: decoder.dateDecodingStrategy = .custom(Self.customDate)
        }
        if nonConforming {
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        }
        if dataDeferred { decoder.dataDecodingStrategy = .deferredToData }
        decoder.userInfo[Self.infoKey] = name
        return decoder
    }
}

// MARK: Comparison

/// A decoding outcome in a comparable form: the value's description, or the error's case,
/// coding path, type and message.
func describeOutcome<T: Codable>(_ body: () throws -> T) -> String {
    do {
        let value = try body()
        // The encoding keeps every bit of a Date (and does not print one, which crashes for
        // dates far out of range) and sorts dictionary keys.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .deferredToDate
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let encoded = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        return "value \(encoded)"
    } catch let error as DecodingError {
        return describeDecodingError(error)
    } catch {
        return "other error \(String(reflecting: error))"
    }
}

func describeDecodingError(_ error: DecodingError) -> String {
    func path(_ keys: [any CodingKey]) -> String {
        keys.map { key in key.intValue.map { "[\($0)|\(key.stringValue)]" } ?? ".\(key.stringValue)" }
            .joined()
    }
    switch error {
    case .typeMismatch(let type, let context):
        return "typeMismatch \(type) at \(path(context.codingPath)): \(context.debugDescription)"
    case .valueNotFound(let type, let context):
        return "valueNotFound \(type) at \(path(context.codingPath)): \(context.debugDescription)"
    case .keyNotFound(let key, let context):
        return "keyNotFound \(key.stringValue) at \(path(context.codingPath)): \(context.debugDescription)"
    case .dataCorrupted(let context):
        return "dataCorrupted at \(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
        return "unknown \(error)"
    }
}

/// An outcome of CourierJSONDecoder's in Foundation's words, where it says more on purpose: a date
/// that is not ISO 8601 is reported at its own path and with its text, where Foundation's error
/// stops at the container. Everything else is compared as it is.
func foundationForm(_ outcome: String) -> String {
    guard outcome.hasPrefix("dataCorrupted at "), outcome.contains("ISO8601-formatted, found") else {
        return outcome
    }
    let pattern =
        #/^dataCorrupted at (?<path>.*?)(?<last>\[[0-9]+\|[^\]]*\]|\.[^.\[]*): Expected date string to be ISO8601-formatted, found ".*"\.$/#
    guard let match = outcome.wholeMatch(of: pattern) else { return outcome }
    return "dataCorrupted at \(match.path): Expected date string to be ISO8601-formatted."
}

/// Decodes `data` as `type` with both decoders; returns a description of the disagreement, or `nil`.
///
/// With `anyErrorMatches`, two failures count as agreement: Foundation's keyed containers list
/// `allKeys` in hash order, which changes from process to process, so which bad value of a
/// `[String: T]` fails first is not defined.
func differentialMismatch<T: Codable>(
    _ type: T.Type, _ data: Data, _ configuration: DiffConfiguration, anyErrorMatches: Bool = false
) -> String? {
    let foundation = configuration.foundation
    let courier = configuration.courier
    let expected = describeOutcome { try foundation.decode(T.self, from: data) }
    let actual = foundationForm(describeOutcome { try courier.decode(T.self, from: data) })
    guard expected != actual else { return nil }
    if anyErrorMatches && !expected.hasPrefix("value ") && !actual.hasPrefix("value ") { return nil }
    return "\(T.self) [\(configuration.name)]\n  Foundation: \(expected)\n  Courier:    \(actual)"
}

/// Runs every model type under every configuration; returns the first disagreement, or `nil`.
func differentialCheck(_ data: Data) -> String? {
    for configuration in DiffConfiguration.all {
        let checks: [() -> String?] = [
            { differentialMismatch(DiffFeed.self, data, configuration) },
            { differentialMismatch([DiffPost].self, data, configuration) },
            { differentialMismatch(DiffPost.self, data, configuration) },
            { differentialMismatch(DiffProbe.self, data, configuration) },
            { differentialMismatch([Double].self, data, configuration) },
            { differentialMismatch([Float].self, data, configuration) },
            { differentialMismatch([Int?].self, data, configuration) },
            { differentialMismatch([UInt64].self, data, configuration) },
            { differentialMismatch([Int8].self, data, configuration) },
            { differentialMismatch([String].self, data, configuration) },
            { differentialMismatch([[Int?]].self, data, configuration) },
            { differentialMismatch([[Date]].self, data, configuration) },
            { differentialMismatch(DiffDates.self, data, configuration) },
            { differentialMismatch([String: [Int]].self, data, configuration, anyErrorMatches: true) },
            { differentialMismatch([String: Double].self, data, configuration, anyErrorMatches: true) },
            { differentialMismatch([Date].self, data, configuration) },
            { differentialMismatch(Int.self, data, configuration) },
            { differentialMismatch(Double.self, data, configuration) },
            { differentialMismatch(String.self, data, configuration) },
        ]
        for check in checks {
            if let mismatch = check() { return mismatch }
        }
    }
    return nil
}
