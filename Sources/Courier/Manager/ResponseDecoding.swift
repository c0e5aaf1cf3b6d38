import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response whose body is ignored: decodes from anything, including no body at all.
///
/// Use it (or `Void.self`) for calls such as `DELETE` that answer `204 No Content`.
public struct EmptyResponse: Codable, Sendable, Hashable {
    /// Creates an empty response.
    public init() {}
    /// Decodes from any body.
    public init(from decoder: any Decoder) throws {}
    /// Encodes nothing.
    public func encode(to encoder: any Encoder) throws {}
}

/// How response bodies become values.
///
/// - `EmptyResponse` ignores the body.
/// - An `Optional` type decodes an empty body as `nil`.
/// - `Data` is the raw body and `String` the body as UTF-8 text; neither is JSON-decoded.
/// - Anything else is JSON-decoded; an empty body fails with `.decodingFailed`.
public enum ResponseDecoding {
    /// Decodes `data` as `T`.
    /// - Parameters:
    ///   - type: the expected type.
    ///   - data: the body.
    ///   - decoder: the JSON decoder.
    /// - Throws: `CourierError` with code `.decodingFailed`, a coding path such as
    ///   `posts[3].likes` and the message; the caller adds request, status and body.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, decoder: JSONDecoder) throws -> T
    {
        if let empty = EmptyResponse() as? T { return empty }
        if data.isEmpty, let nilType = T.self as? any ExpressibleByNilLiteral.Type,
            let none = nilType.init(nilLiteral: ()) as? T
        {
            return none
        }
        if let raw = data as? T { return raw }
        if T.self == String.self, let text = String(decoding: data, as: UTF8.self) as? T { return text }
        if data.isEmpty {
            throw CourierError(.decodingFailed, "the body is empty; expected \(T.self)")
        }
        do {
            return try decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            let (path, message) = describe(error)
            throw CourierError(
                .decodingFailed, "cannot decode \(T.self): \(message)", codingPath: path, underlying: error)
        } catch {
            throw CourierError(.decodingFailed, "cannot decode \(T.self): \(error)", underlying: error)
        }
    }

    /// A coding path as text: `posts[3].likes`.
    public static func pathString(_ path: [any CodingKey]) -> String {
        var result = ""
        for key in path {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += (result.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return result
    }

    static func describe(_ error: DecodingError) -> (path: String, message: String) {
        switch error {
        case .keyNotFound(let key, let context):
            return (pathString(context.codingPath + [key]), "required key \"\(key.stringValue)\" is missing")
        case .valueNotFound(let type, let context):
            return (pathString(context.codingPath), "expected \(type) but found null")
        case .typeMismatch(let type, let context):
            return (pathString(context.codingPath), "expected \(type): \(context.debugDescription)")
        case .dataCorrupted(let context):
            var message = context.debugDescription
            if let underlying = context.underlyingError {
                message += " (\((underlying as NSError).userInfo[NSDebugDescriptionErrorKey] ?? underlying))"
            }
            return (pathString(context.codingPath), message)
        @unknown default:
            return ("", "\(error)")
        }
    }
}
