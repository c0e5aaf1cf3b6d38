import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends endpoints through a transport and turns the answers into typed responses.
///
/// SKELETON: the public surface is settled; interceptors, retry and completion
/// handlers are being filled in (issue 2).
public final class NetworkManager: Sendable {
    /// The transport requests go through.
    public let transport: any Transport
    /// The base URL that relative endpoint paths resolve against.
    public let baseURL: URL?
    /// Limits applied to every transfer.
    public let transferOptions: TransferOptions

    /// Creates a manager.
    public init(
        transport: any Transport,
        baseURL: URL? = nil,
        transferOptions: TransferOptions = TransferOptions()
    ) {
        self.transport = transport
        self.baseURL = baseURL
        self.transferOptions = transferOptions
    }

    /// Sends `endpoint` and decodes the body as `T` from JSON.
    /// - Throws: `CourierError`.
    public func send<T: Decodable & Sendable>(
        _ endpoint: some URLRequestConvertible, as type: T.Type = T.self,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Response<T> {
        let raw = try await sendRaw(endpoint, progress: progress)
        do {
            let value = try JSONDecoder.courier.decode(T.self, from: raw.body.data)
            return raw.map { _ in value }
        } catch {
            throw CourierError(
                .decodingFailed, "\(error)", request: raw.request, status: raw.status,
                headers: raw.headers, body: raw.body.data)
        }
    }

    /// Sends `endpoint` and returns the body undecoded.
    /// - Throws: `CourierError`.
    public func sendRaw(
        _ endpoint: some URLRequestConvertible,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Response<Data> {
        let request = try makeRequest(endpoint)
        let response = try await transport.send(
            TransportRequest(request, options: transferOptions, progress: progress))
        guard (200..<300).contains(response.status) else {
            throw CourierError(
                .unacceptableStatus, "status \(response.status)", request: request.urlRequest,
                status: response.status, headers: response.headers, body: response.body.data)
        }
        return Response(
            value: response.body.data, status: response.status, headers: response.headers,
            body: response.body, request: request.urlRequest, url: response.url,
            timings: response.timings, httpVersion: response.httpVersion)
    }

    /// Builds the request for `endpoint`, resolving a relative URL against `baseURL`.
    /// - Throws: `CourierError` with an invalid-request code.
    public func makeRequest(_ endpoint: some URLRequestConvertible) throws -> HTTPRequest {
        if let configurable = endpoint as? any APIConfigurable {
            return try configurable.makeHTTPRequest(baseURL: baseURL)
        }
        var request = try endpoint.asHTTPRequest()
        if let url = request.urlRequest.url, url.scheme == nil {
            request.urlRequest.url = try RequestBuilding.url(path: url.absoluteString, base: baseURL)
        }
        return request
    }
}

extension JSONDecoder {
    /// Courier's default decoder: ISO 8601 dates.
    public static var courier: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension JSONEncoder {
    /// Courier's default encoder: ISO 8601 dates, sorted keys.
    public static var courier: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
