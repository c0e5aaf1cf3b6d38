import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response whose body is ignored: decodes from anything, including no body at all.
///
/// Use it for calls such as `DELETE` that answer `204 No Content`:
/// `send(endpoint, as: EmptyResponse.self)`.
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
package enum ResponseDecoding {
    /// Decodes `data` as `T`.
    /// - Parameters:
    ///   - type: the expected type.
    ///   - data: the body.
    ///   - decoder: the JSON decoder (`CourierJSONDecoder` or Foundation's `JSONDecoder`).
    /// - Throws: `CourierError` with code `.decodingFailed`, a coding path such as
    ///   `notes[3].text` and the message; the caller adds request, status and body.
    package static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, decoder: any ResponseBodyDecoder
    )
        throws -> T
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
            var (path, message) = describe(error)
            if path.isEmpty, let syntax = syntaxError(in: data) { message = syntax }
            let location = path.isEmpty ? "" : " at \(path)"
            throw CourierError(
                .decodingFailed, "cannot decode \(T.self)\(location): \(message)", codingPath: path,
                underlying: error)
        } catch {
            throw CourierError(
                .decodingFailed, "cannot decode \(T.self): \(oneLine(error.localizedDescription))",
                underlying: error)
        }
    }

    /// A coding path as text: `notes[3].text`.
    package static func pathString(_ path: [any CodingKey]) -> String {
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

    /// The path to the failing value and a one-line message without the path.
    package static func describe(_ error: DecodingError) -> (path: String, message: String) {
        switch error {
        case .keyNotFound(let key, let context):
            return (pathString(context.codingPath + [key]), "required key \"\(key.stringValue)\" is missing")
        case .valueNotFound(let type, let context):
            return (pathString(context.codingPath), "expected \(type), found null")
        case .typeMismatch(let type, let context):
            return (pathString(context.codingPath), mismatch(type, context.debugDescription))
        case .dataCorrupted(let context):
            var message = context.debugDescription
            if let underlying = context.underlyingError {
                let detail = (underlying as NSError).userInfo[NSDebugDescriptionErrorKey] ?? underlying
                message += " (\(detail))"
            }
            return (pathString(context.codingPath), oneLine(message))
        @unknown default:
            return ("", oneLine("\(error)"))
        }
    }

    /// "expected Int, found a string" from the decoder's "Expected to decode Int but found a
    /// string instead."; other wordings are kept, after "expected Int: ".
    private static func mismatch(_ type: Any.Type, _ detail: String) -> String {
        let prefix = "Expected to decode \(type) but found "
        if detail.hasPrefix(prefix) {
            var found = detail.dropFirst(prefix.count)
            if found.hasSuffix(" instead.") { found = found.dropLast(" instead.".count) }
            return "expected \(type), found \(found)"
        }
        return "expected \(type): \(oneLine(detail))"
    }

    /// Where JSON is malformed, as "malformed JSON at line L, column C: reason", by the strict
    /// reading of RFC 8259 that configuration and mapping files get too; `nil` when `data` is JSON.
    package static func syntaxError(in data: Data) -> String? {
        JSONSyntax.firstError(in: data)?.description
    }

    /// `text` on one line: line breaks become spaces.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }
}
