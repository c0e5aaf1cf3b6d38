import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkManager {
    /// Sends a declared endpoint and decodes its body as the endpoint's response type.
    ///
    /// ```swift
    /// let notes = try await manager.send(NotesAPI.list(tag: "work"))  // Response<[Note]>
    /// ```
    /// - Throws: `CourierError`.
    public func send<Value>(
        _ endpoint: Endpoint<Value>, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(CourierError) -> Response<Value> {
        try await perform(built: endpoint, as: Value.self, progress: progress)
    }

    /// Sends a declared endpoint and returns the body undecoded (after validation).
    /// - Throws: `CourierError`.
    public func sendRaw(
        _ endpoint: some EndpointDescribing, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(CourierError) -> Response<Data> {
        // Not boxed: the manager's path for a request that builds itself.
        try await sendRaw(built: EndpointRequest(endpoint: endpoint), progress: progress)
    }

    /// Sends a declared endpoint and hands the typed result to `completion` on
    /// `callbackQueue`.
    /// - Returns: the task, to cancel the call.
    @discardableResult
    public func request<Value>(
        _ endpoint: Endpoint<Value>,
        completion: @escaping @Sendable (Result<Response<Value>, CourierError>) -> Void
    ) -> Task<Void, Never> {
        performRequest(
            EndpointRequest(endpoint: endpoint), as: Value.self, completion: completion)
    }

    /// Sends a declared endpoint and calls `success` with the decoded value or `failure`
    /// with the error, on `callbackQueue`.
    /// - Returns: the task, to cancel the call.
    @discardableResult
    public func request<Value>(
        _ endpoint: Endpoint<Value>, success: @escaping @Sendable (Value) -> Void,
        failure: @escaping @Sendable (CourierError) -> Void
    ) -> Task<Void, Never> {
        request(endpoint) { result in
            switch result {
            case .success(let response): success(response.value)
            case .failure(let error): failure(error)
            }
        }
    }

    // An `Endpoint` is not a `URLRequestConvertible`, so without these `send(_:as:)` would be refused
    // for a missing conformance; these say instead that `as:` is what has to go.

    /// Not available: an endpoint decodes as the response type it declares. Call `send(endpoint)`.
    /// - Throws: never; it does not compile.
    @available(
        *, unavailable,
        message: "an Endpoint<T> already fixes its response type T; drop 'as:' and call send(endpoint)"
    )
    public func send<Value, Other: Decodable & Sendable>(
        _ endpoint: Endpoint<Value>, as type: Other.Type,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(CourierError) -> Response<Other> {
        fatalError("unavailable")
    }

    /// Not available: an endpoint decodes as the response type it declares. Call
    /// `request(endpoint, completion:)`.
    /// - Returns: never; it does not compile.
    @available(
        *, unavailable,
        message:
            "an Endpoint<T> already fixes its response type T; drop 'as:' and call request(endpoint, completion:)"
    )
    @discardableResult
    public func request<Value, Other: Decodable & Sendable>(
        _ endpoint: Endpoint<Value>, as type: Other.Type,
        completion: @escaping @Sendable (Result<Response<Other>, CourierError>) -> Void
    ) -> Task<Void, Never> {
        fatalError("unavailable")
    }

    /// Not available: an endpoint decodes as the response type it declares. Call
    /// `request(endpoint, success:failure:)`.
    /// - Returns: never; it does not compile.
    @available(
        *, unavailable,
        message:
            "an Endpoint<T> already fixes its response type T; drop 'as:' and call request(endpoint, success:failure:)"
    )
    @discardableResult
    public func request<Value, Other: Decodable & Sendable>(
        _ endpoint: Endpoint<Value>, as type: Other.Type, success: @escaping @Sendable (Other) -> Void,
        failure: @escaping @Sendable (CourierError) -> Void
    ) -> Task<Void, Never> {
        fatalError("unavailable")
    }
}

/// A declared endpoint builds its own request and chooses its validation and decoder.
extension Endpoint: TransportRequestConvertible {}

/// An endpoint's request in the form the completion-handler calls take, which send any
/// `URLRequestConvertible`. Generic rather than holding `any EndpointDescribing`: an `Endpoint`
/// does not fit an existential's inline buffer, so that was an allocation a call.
struct EndpointRequest<Described: EndpointDescribing>: TransportRequestConvertible, URLRequestConvertible {
    let endpoint: Described

    func makeRequest(baseURL: URL?) throws -> TransportRequest { try endpoint.makeRequest(baseURL: baseURL) }
    var validation: Validation? { endpoint.validation }
    var decoder: (any ResponseBodyDecoder)? { endpoint.decoder }
}
