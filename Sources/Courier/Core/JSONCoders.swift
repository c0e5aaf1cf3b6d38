import Foundation

extension JSONDecoder {
    /// Courier's default decoder: ISO 8601 dates.
    public static var courier: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension JSONEncoder {
    /// Courier's default encoder: ISO 8601 dates, sorted keys, slashes unescaped.
    public static var courier: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
