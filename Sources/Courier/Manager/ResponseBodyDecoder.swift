import CourierJSON
import Foundation

/// A decoder of response bodies: `CourierJSONDecoder` (the default, from `CourierJSON`) or
/// Foundation's `JSONDecoder`.
public protocol ResponseBodyDecoder: Sendable {
    /// Decodes a value of `type` from `data`.
    /// - Throws: `DecodingError` when the body does not fit the type.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
}

extension CourierJSONDecoder: ResponseBodyDecoder {}
extension JSONDecoder: ResponseBodyDecoder {}
