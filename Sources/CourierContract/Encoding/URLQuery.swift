import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Parameters appended to the URL's query.
///
/// Keys are sorted at every level, so the same parameters always give the same URL.
/// Keys and values are percent-encoded with the RFC 3986 unreserved set, so brackets in
/// nested keys go out as `%5B`/`%5D` (servers decode them back to `a[b]`).
///
/// ```swift
/// URLQuery(["q": "swift & co", "tags": ["a", "b"], "draft": false])
/// // ?draft=false&q=swift%20%26%20co&tags%5B%5D=a&tags%5B%5D=b
/// ```
public struct URLQuery: ParameterConvertible {
    let source: ParameterSource
    /// The key rules: arrays, booleans and nulls.
    package var encoding: KeyValueEncoding

    /// Creates query parameters from values.
    /// - Parameters:
    ///   - parameters: the names and values.
    ///   - arrays: how arrays are written; default `tags[]=a&tags[]=b`.
    ///   - bools: how booleans are written; default `true`/`false`.
    ///   - nulls: how nulls are written; default: left out.
    public init(
        _ parameters: [String: ParameterValue], arrays: ArrayEncoding = .brackets,
        bools: BoolEncoding = .literal, nulls: NullEncoding = .dropKey
    ) {
        source = .values(parameters)
        encoding = KeyValueEncoding(arrays: arrays, bools: bools, nulls: nulls)
    }

    /// Creates query parameters from an `Encodable` model whose properties become the keys.
    /// The model is encoded when the request is built; a model that does not encode to
    /// keyed values fails then with `.invalidParameters`.
    public init(
        _ model: some Encodable & Sendable, arrays: ArrayEncoding = .brackets,
        bools: BoolEncoding = .literal, nulls: NullEncoding = .dropKey,
        encoder: ParameterValueEncoder = ParameterValueEncoder()
    ) {
        source = .model(model, encoder)
        encoding = KeyValueEncoding(arrays: arrays, bools: bools, nulls: nulls)
    }

    /// The encoded query, such as `a=1&b%5B%5D=x`, without the `?`.
    /// - Throws: `CourierError` with code `.invalidParameters`.
    package func percentEncodedQuery() throws -> String {
        try encoding.pairs(source.object(for: "URLQuery"))
            .map { PercentEncoding.rfc3986($0.key) + "=" + PercentEncoding.rfc3986($0.value) }
            .joined(separator: "&")
    }

    /// Appends the query to the request's URL, after any query it already has.
    /// - Throws: `CourierError` with code `.invalidParameters` or `.invalidURL`.
    public func encode(into request: inout TransportRequest) throws {
        let query = try percentEncodedQuery()
        guard !query.isEmpty else { return }
        let url = request.url
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw CourierError(.invalidURL, "the request has no URL to add a query to")
        }
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + query
        } else {
            components.percentEncodedQuery = query
        }
        guard let newURL = components.url else {
            throw CourierError(.invalidURL, "cannot add query \(query) to \(url)")
        }
        request.url = newURL
    }
}
