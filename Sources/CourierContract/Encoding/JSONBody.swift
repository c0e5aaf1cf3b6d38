import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A JSON body from any `Encodable` model, with `Content-Type: application/json`.
///
/// Uses `JSONEncoder.courier` (ISO 8601 dates, sorted keys) unless given another encoder.
public struct JSONBody: ParameterConvertible {
    /// The model to encode.
    package let value: any Encodable & Sendable
    /// The encoder used.
    package let encoder: JSONEncoder

    /// Creates a JSON body.
    /// - Parameters:
    ///   - value: the model; a `ParameterValue` works for ad-hoc JSON.
    ///   - encoder: the encoder; default `JSONEncoder.courier`.
    public init(_ value: some Encodable & Sendable, encoder: JSONEncoder = .courier) {
        self.value = value
        self.encoder = encoder
    }

    /// The encoded bytes.
    /// - Throws: `CourierError` with code `.invalidParameters`.
    package func encodedData() throws -> Data {
        do {
            return try encoder.encode(value)
        } catch {
            throw CourierError(
                .invalidParameters, "cannot encode \(type(of: value)) as JSON: \(error)", underlying: error)
        }
    }

    /// Sets the body and `Content-Type: application/json`.
    /// - Throws: `CourierError` with code `.invalidParameters`, also when the request
    ///   already has a body.
    public func encode(into request: inout TransportRequest) throws {
        try request.requireNoBody(for: "JSONBody")
        request.body = .data(try encodedData())
        request.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
    }
}
