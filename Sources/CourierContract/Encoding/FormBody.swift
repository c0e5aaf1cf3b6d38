import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An `application/x-www-form-urlencoded` body.
///
/// Keys follow the same rules as `URLQuery` (sorted, `a[b]`, `tags[]`). Bytes are
/// written by the WHATWG URL standard's form serializer, as browsers submit HTML forms:
/// a space becomes `+`, `*-._` and alphanumerics stay, everything else is
/// percent-encoded (`+` is `%2B`, `~` is `%7E`).
public struct FormBody: ParameterConvertible {
    let source: ParameterSource
    /// The key rules: arrays, booleans and nulls.
    package var encoding: KeyValueEncoding

    /// The media type set on the request.
    static let contentType = MediaType.form

    /// Creates a form from values.
    public init(
        _ parameters: [String: ParameterValue], arrays: ArrayEncoding = .brackets,
        bools: BoolEncoding = .literal, nulls: NullEncoding = .dropKey
    ) {
        source = .values(parameters)
        encoding = KeyValueEncoding(arrays: arrays, bools: bools, nulls: nulls)
    }

    /// Creates a form from an `Encodable` model whose properties become the fields.
    public init(
        _ model: some Encodable & Sendable, arrays: ArrayEncoding = .brackets,
        bools: BoolEncoding = .literal, nulls: NullEncoding = .dropKey,
        encoder: ParameterValueEncoder = ParameterValueEncoder()
    ) {
        source = .model(model, encoder)
        encoding = KeyValueEncoding(arrays: arrays, bools: bools, nulls: nulls)
    }

    /// The encoded body text.
    /// - Throws: `CourierError` with code `.invalidParameters`.
    package func encodedString() throws -> String {
        try encoding.pairs(source.object(for: "FormBody"))
            .map { PercentEncoding.form($0.key) + "=" + PercentEncoding.form($0.value) }
            .joined(separator: "&")
    }

    /// Sets the body and `Content-Type: application/x-www-form-urlencoded`.
    /// - Throws: `CourierError` with code `.invalidParameters`, also when the request
    ///   already has a body.
    public func encode(into request: inout TransportRequest) throws {
        try request.requireNoBody(for: "FormBody")
        request.body = .data(Data(try encodedString().utf8))
        request.headers.replaceOrAdd(name: "Content-Type", value: Self.contentType)
    }
}

extension TransportRequest {
    /// Refuses a second body encoder on the same request.
    func requireNoBody(for encoder: String) throws {
        if case .empty = body { return }
        throw CourierError(
            .invalidParameters, "\(encoder) cannot set the body: the request already has one")
    }
}
