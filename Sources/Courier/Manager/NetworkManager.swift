import CourierCookies
import CourierJSON
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends endpoints through a transport and turns the answers into typed responses.
///
/// Every call runs the same pipeline: build the request (adding `defaultHeaders`), run the
/// interceptors in order around the transport (adapt → send, with `CourierInterceptors`'
/// `RetryPolicy` and `AuthInterceptor` replaying as needed), validate the final response,
/// and decode it.
/// Every error thrown is a `CourierError` carrying the request, the response if one
/// arrived, and the cause.
///
/// ```swift
/// import CourierContract  // `API` and `Endpoint`: declare `NotesAPI` once, send its endpoints
/// import CourierInterceptors
/// import CourierURLSession
///
/// let manager = NetworkManager(
///     transport: URLSessionTransport(), baseURL: URL(string: "https://api.example.com"),
///     interceptors: [RetryPolicy(), AuthInterceptor(provider: tokens)])
/// let note = try await manager.send(NotesAPI.note(id: "n1")).value  // a Note
/// ```
public final class NetworkManager: Sendable {
    /// The transport requests go through.
    public let transport: any Transport
    /// Everything but the transport, as one value (see `Settings`).
    public let settings: Settings

    // The manager's own shorthands for its settings.
    package var baseURL: URL? { settings.baseURL }
    package var cookieJar: CookieJar? { settings.cookieJar }
    package var transferOptions: TransferOptions { settings.transferOptions }
    package var interceptors: [any Interceptor] { settings.interceptors }
    package var validation: Validation { settings.validation }
    package var defaultHeaders: HTTPHeaders { settings.defaultHeaders }
    package var eventMonitors: [any EventMonitor] { settings.eventMonitors }
    package var callbackQueue: DispatchQueue { settings.callbackQueue }
    package var decoder: any ResponseBodyDecoder { settings.decoder }

    /// Creates a manager from `settings`; `manager.settings` gives another manager's, whose cookie
    /// jar the new one then shares.
    /// - Parameters:
    ///   - transport: what sends the bytes.
    ///   - settings: everything else.
    public init(transport: any Transport, settings: Settings) {
        self.transport = transport
        self.settings = settings
    }

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - transport: what sends the bytes.
    ///   - baseURL: what relative endpoint paths resolve against.
    ///   - transferOptions: per-transfer limits (response size, timeouts, redirects).
    ///   - interceptors: outermost first, such as `[RetryPolicy(), AuthInterceptor(...)]`.
    ///   - validation: which responses are success; default 2xx.
    ///   - defaultHeaders: added to every request that does not set them.
    ///   - eventMonitors: receive events for logging and metrics.
    ///   - callbackQueue: where completion handlers run; default a global queue.
    ///   - decoder: the response body decoder; default `CourierJSONDecoder.courier` (ISO 8601
    ///     dates). Pass `JSONDecoder.courier` to decode with Foundation's decoder instead.
    ///   - cookieJar: the cookies kept between requests; default a new jar in memory, `nil`
    ///     for none.
    public convenience init(
        transport: any Transport,
        baseURL: URL? = nil,
        transferOptions: TransferOptions = TransferOptions(),
        interceptors: [any Interceptor] = [],
        validation: Validation = .default,
        defaultHeaders: HTTPHeaders = HTTPHeaders(),
        eventMonitors: [any EventMonitor] = [],
        callbackQueue: DispatchQueue = .global(),
        decoder: any ResponseBodyDecoder = CourierJSONDecoder.courier,
        cookieJar: CookieJar? = CookieJar()
    ) {
        self.init(
            transport: transport,
            settings: Settings(
                baseURL: baseURL, transferOptions: transferOptions, interceptors: interceptors,
                validation: validation, defaultHeaders: defaultHeaders, eventMonitors: eventMonitors,
                callbackQueue: callbackQueue, decoder: decoder, cookieJar: cookieJar))
    }

    /// Sends `endpoint` and decodes the body as `T` (JSON; see `ResponseDecoding` for
    /// `Optional`, `EmptyResponse`, `Data` and `String`).
    /// - Throws: `CourierError`.
    public func send<T: Decodable & Sendable>(
        _ endpoint: some URLRequestConvertible, as type: T.Type,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(CourierError) -> Response<T> {
        try await reportingFailure {
            let (request, validation, decoder) = try prepare(endpoint)
            let raw = try await collected(consume request, progress: progress, validation: validation)
            return try decode(T.self, from: raw, decoder: decoder)
        }
    }

    /// `send` for a request that builds itself, as a declared endpoint's does: no look at what
    /// it is, so no existential box for it (see `prepare(built:)`).
    nonisolated(nonsending) package func perform<T: Decodable & Sendable>(
        built endpoint: some TransportRequestConvertible, as type: T.Type,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(CourierError) -> Response<T> {
        try await reportingFailure {
            let (request, validation, decoder) = try prepare(built: endpoint)
            let raw = try await collected(consume request, progress: progress, validation: validation)
            return try decode(T.self, from: raw, decoder: decoder)
        }
    }

    /// Sends `endpoint` and returns the body undecoded (after validation).
    /// - Throws: `CourierError`.
    public func sendRaw(
        _ endpoint: some URLRequestConvertible,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(CourierError) -> Response<Data> {
        try await reportingFailure {
            let (request, validation, _) = try prepare(endpoint)
            return try await collected(consume request, progress: progress, validation: validation)
        }
    }

    /// `sendRaw` for a request that builds itself (see `perform(built:as:progress:)`).
    nonisolated(nonsending) package func sendRaw(
        built endpoint: some TransportRequestConvertible,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(CourierError) -> Response<Data> {
        // Not through `decode`: its run-time checks of what `T` is cost a few thousand instructions a call.
        try await reportingFailure {
            let (request, validation, _) = try prepare(built: endpoint)
            return try await collected(consume request, progress: progress, validation: validation)
        }
    }

    /// The exchange of `request` with its body whole in memory: what `send` and `sendRaw` read.
    /// - Throws: `CourierError`.
    nonisolated(nonsending) package func collected(
        _ request: consuming TransportRequest, progress: (@Sendable (TransferProgress) -> Void)? = nil,
        validation: Validation? = nil
    ) async throws -> Response<Data> {
        let exchanged = try await exchange(request, progress: progress, validation: validation)
        if case .data(let data) = exchanged.body { return exchanged.with(data, body: exchanged.body) }
        let data = try await collect(exchanged)
        return exchanged.with(data, body: .data(data))
    }

    /// Builds the request for `endpoint`, resolving a relative URL against `baseURL` and
    /// adding `defaultHeaders` it does not set.
    /// - Throws: `CourierError` with an invalid-request code.
    package func makeRequest(_ endpoint: some URLRequestConvertible) throws -> TransportRequest {
        try prepare(endpoint).request
    }

    /// A built request, with the validation and decoder its endpoint chose for itself, if any
    /// (`nil`: the manager's).
    typealias Prepared = (
        request: TransportRequest, validation: Validation?, decoder: (any ResponseBodyDecoder)?
    )

    /// The request for `endpoint` (see `makeRequest`), and the validation and decoder it chose.
    /// - Throws: `CourierError` with an invalid-request code.
    func prepare(_ endpoint: some URLRequestConvertible) throws -> Prepared {
        var request: TransportRequest
        do {
            request = try endpoint.makeRequest(baseURL: baseURL)
        } catch {
            throw Self.buildFailure(error)
        }
        try finishPreparing(&request)
        return (request, endpoint.validation, endpoint.decoder)
    }

    /// `prepare` for a declared endpoint, which is not a `URLRequestConvertible`.
    /// - Throws: `CourierError` with an invalid-request code.
    func prepare(built endpoint: some TransportRequestConvertible) throws -> Prepared {
        var request: TransportRequest
        do {
            request = try endpoint.makeRequest(baseURL: baseURL)
        } catch {
            throw Self.buildFailure(error)
        }
        try finishPreparing(&request)
        return (request, endpoint.validation, endpoint.decoder)
    }

    /// What building a request threw, as a `CourierError`: itself, or `.invalidURL`.
    private static func buildFailure(_ error: any Error) -> CourierError {
        error as? CourierError
            ?? CourierError(.invalidURL, "cannot build the request: \(error)", underlying: error)
    }

    /// Checks that a built request's URL is absolute and adds the `defaultHeaders` it does not set.
    private func finishPreparing(_ request: inout TransportRequest) throws {
        guard request.url.authority != nil else {
            let problem =
                request.url.scheme == nil
                ? "is not absolute; give the manager a baseURL" : "has no valid host and port"
            throw CourierError(
                .invalidURL, "the URL \(request.url.absoluteString) \(problem)", request: request)
        }
        for field in defaultHeaders where !request.headers.contains(field.name) {
            try HTTPHeaders.validate(name: field.name, value: field.value)
            request.headers.add(name: field.name, value: field.value)
        }
    }

    /// Decodes a validated raw response with `decoder`, else the manager's.
    func decode<T: Decodable & Sendable>(
        _ type: T.Type, from raw: Response<Data>, decoder: (any ResponseBodyDecoder)? = nil
    ) throws -> Response<T> {
        do {
            let value = try ResponseDecoding.decode(T.self, from: raw.value, decoder: decoder ?? self.decoder)
            return raw.map { _ in value }
        } catch var error as CourierError {
            error.request = raw.request
            error.status = raw.status
            error.headers = raw.headers
            error.body = raw.value
            throw error
        }
    }

    /// Runs `body`, reporting a thrown error to the event monitors as `.failed`: the one place
    /// where whatever a transport, an interceptor or a decoder threw becomes a `CourierError`,
    /// so every public entry point that runs through here throws `CourierError` alone.
    nonisolated(nonsending) package func reportingFailure<R>(
        _ body: nonisolated(nonsending) () async throws -> R
    ) async throws(CourierError) -> R {
        do {
            return try await body()
        } catch {
            let courierError = CourierError.wrapping(error, request: nil)
            for monitor in eventMonitors { monitor.handle(.failed(courierError)) }
            throw courierError
        }
    }
}
