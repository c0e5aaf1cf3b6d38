import Foundation

/// A JSON decoder for `Decodable` types that gives the same values and the same `DecodingError`s
/// as Foundation's `JSONDecoder`, several times faster.
///
/// It reads the bytes once into a compact index and looks keys up by comparing bytes in place,
/// instead of building a dictionary of `String`s for every object. Strings and numbers are
/// converted only when a value is decoded, with the standard library's parsers, so doubles round
/// exactly as Foundation's do. Malformed input, nesting deeper than 512 levels, numbers that do
/// not fit and invalid UTF-8 are `DecodingError.dataCorrupted`, as in Foundation.
///
/// One error says more than Foundation's: a date that is not ISO 8601 is reported at its own
/// coding path (`posts[1].createdAt`, where Foundation stops at `posts[1]`), with its text.
///
/// ```swift
/// var decoder = CourierJSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let notes = try decoder.decode([Note].self, from: data)
/// ```
public struct CourierJSONDecoder: Sendable {
    /// How JSON keys map to coding keys.
    public enum KeyDecodingStrategy: Sendable {
        /// Keys are used as they are.
        case useDefaultKeys
        /// `snake_case` keys become `camelCase` (`one_two` → `oneTwo`; leading and trailing
        /// underscores are kept), as Foundation converts them.
        case convertFromSnakeCase
        /// The function gets the coding path ending in the JSON key and returns the key to use.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are decoded.
    public enum DateDecodingStrategy: Sendable {
        /// `Date`'s own `Decodable` implementation (seconds since 2001-01-01).
        case deferredToDate
        /// An ISO 8601 string, with or without fractional seconds and with any time zone offset.
        case iso8601
        /// A number of seconds since 1970-01-01.
        case secondsSince1970
        /// A number of milliseconds since 1970-01-01.
        case millisecondsSince1970
        /// A string read by the formatter.
        case formatted(DateFormatter)
        /// The function decodes the date from the decoder.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
    }

    /// How `Data` values are decoded.
    public enum DataDecodingStrategy: Sendable {
        /// `Data`'s own `Decodable` implementation (an array of bytes).
        case deferredToData
        /// A Base64 string.
        case base64
        /// The function decodes the data from the decoder.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
    }

    /// How strings stand for infinities and NaN in floating-point fields.
    public enum NonConformingFloatDecodingStrategy: Sendable {
        /// Such values are a type mismatch.
        case `throw`
        /// These exact strings decode as `+infinity`, `-infinity` and NaN.
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// How JSON keys map to coding keys; default `.useDefaultKeys`.
    public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
    /// How dates are decoded; default `.deferredToDate`, as in Foundation.
    public var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate
    /// How data is decoded; default `.base64`.
    public var dataDecodingStrategy: DataDecodingStrategy = .base64
    /// How infinities and NaN are read; default `.throw`.
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy = .throw
    /// Values handed to `Decodable` implementations as `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder with Foundation's defaults.
    public init() {}

    /// Courier's default response decoder: ISO 8601 dates, like Foundation's `JSONDecoder` as
    /// Courier configures it (`JSONDecoder.courier`).
    public static var courier: CourierJSONDecoder {
        var decoder = CourierJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Decodes a value of `type` from the JSON in `data`.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: UTF-8 JSON (UTF-16 and UTF-32 with or without a byte order mark are converted).
    /// - Returns: the value.
    /// - Throws: `DecodingError`, with the same case and coding path as Foundation's `JSONDecoder`,
    ///   or whatever the type's own `init(from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let document: JSONDocument
        do {
            document = try Self.document(from: data)
        } catch let error as JSONSyntaxError {
            throw error.decodingError
        }
        let decoder = TapeDecoder(document: document, options: Options(self), poolsContainers: true)
        defer { decoder.closePools() }
        return try decoder.unwrap(1, as: T.self, parent: .node(nil), key: .absent)
    }

    /// Detects the encoding as Foundation does (RFC 4627, byte order marks) and scans UTF-8.
    private static func document(from data: Data) throws -> JSONDocument {
        // UTF-8, by far the most common, is detected and copied in one pass over `data`'s bytes.
        let scanned: JSONDocument? = try data.withUnsafeBytes { raw in
            let (encoding, bom) = Self.encoding(of: raw)
            guard encoding == .utf8 else { return nil }
            return try JSONDocument(copying: UnsafeRawBufferPointer(rebasing: raw[bom...]))
        }
        if let scanned { return scanned }
        let (encoding, bom) = data.withUnsafeBytes { Self.encoding(of: $0) }
        guard var string = String(bytes: data.dropFirst(bom), encoding: encoding) else {
            throw JSONSyntaxError(offset: 0)
        }
        return try string.withUTF8 { try JSONDocument(copying: UnsafeRawBufferPointer($0)) }
    }

    /// The encoding of the bytes `b` by their first four, and the length of its byte order mark.
    /// They are read in place: copying them into an array first cost an allocation per decode.
    private static func encoding(of b: UnsafeRawBufferPointer) -> (String.Encoding, Int) {
        let b0: UInt8? = b.count > 0 ? b[0] : nil
        let b1: UInt8? = b.count > 1 ? b[1] : nil
        let b2: UInt8? = b.count > 2 ? b[2] : nil
        let b3: UInt8? = b.count > 3 ? b[3] : nil
        let encoding: String.Encoding
        let bom: Int
        switch (b0, b1, b2, b3) {
        case (0, 0, 0xFE, 0xFF): (encoding, bom) = (.utf32BigEndian, 4)
        case (0xFE, 0xFF, 0, 0): (encoding, bom) = (.utf32LittleEndian, 4)
        case (0xFE, 0xFF, _, _): (encoding, bom) = (.utf16BigEndian, 2)
        case (0xFF, 0xFE, _, _): (encoding, bom) = (.utf16LittleEndian, 2)
        case (0xEF, 0xBB, 0xBF, _): (encoding, bom) = (.utf8, 3)
        case (0, 0, 0, .some(let nz)) where nz != 0: (encoding, bom) = (.utf32BigEndian, 0)
        case (0, .some(let nz1), 0, .some(let nz2)) where nz1 != 0 && nz2 != 0:
            (encoding, bom) = (.utf16BigEndian, 0)
        case (.some(let nz), 0, 0, 0) where nz != 0: (encoding, bom) = (.utf32LittleEndian, 0)
        case (.some(let nz1), 0, .some(let nz2), 0) where nz1 != 0 && nz2 != 0:
            (encoding, bom) = (.utf16LittleEndian, 0)
        case (0, .some(let nz), nil, nil) where nz != 0: (encoding, bom) = (.utf16BigEndian, 0)
        case (.some(let nz), 0, nil, nil) where nz != 0: (encoding, bom) = (.utf16LittleEndian, 0)
        default: (encoding, bom) = (.utf8, 0)
        }
        return (encoding, bom)
    }

    /// The strategies in the form the decoding loop reads them.
    struct Options {
        enum KeyMode {
            case plain, snakeCase
            case custom(@Sendable ([any CodingKey]) -> any CodingKey)
        }
        var keys: KeyMode
        var dates: DateDecodingStrategy
        var data: DataDecodingStrategy
        /// `convertFromString`'s three strings as UTF-8, or `nil` for `.throw`.
        var nonConforming: (positive: [UInt8], negative: [UInt8], nan: [UInt8])?
        var userInfo: [CodingUserInfoKey: Any]

        init(_ decoder: borrowing CourierJSONDecoder) {
            switch decoder.keyDecodingStrategy {
            case .useDefaultKeys: keys = .plain
            case .convertFromSnakeCase: keys = .snakeCase
            case .custom(let function): keys = .custom(function)
            }
            dates = decoder.dateDecodingStrategy
            data = decoder.dataDecodingStrategy
            switch decoder.nonConformingFloatDecodingStrategy {
            case .throw: nonConforming = nil
            case .convertFromString(let positive, let negative, let nan):
                nonConforming = (Array(positive.utf8), Array(negative.utf8), Array(nan.utf8))
            }
            // Most decoders have no user info: `mapValues` would still build a new dictionary.
            userInfo = decoder.userInfo.isEmpty ? [:] : decoder.userInfo.mapValues { $0 as Any }
        }

        var isPlainKeys: Bool {
            if case .plain = keys { return true }
            return false
        }
    }
}
