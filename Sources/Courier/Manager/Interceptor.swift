import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A step around every transfer: it may change the request, call `next` (once, several
/// times, or not at all) and change or inspect the response.
///
/// Every call (`send`, `download`, `stream`, `events`) runs the same chain, and a response's
/// body comes through it as the transport gave it: whole (`ResponseBody.data`) or streaming
/// (`ResponseBody.stream`). An interceptor that keeps a body watches a stream pass with
/// `ResponseStream.observed(chunk:end:)` and keeps it only when it ended whole; one that
/// answers itself may give either kind, whatever the call. One that drops a response to try
/// again cancels its stream, or leaves it to the next attempt, which does.
///
/// `NetworkManager` chains its interceptors in order: the first one given is the outermost,
/// so it sees the request first and the response last. `next` runs the rest of the chain
/// and then the transport.
///
/// `RetryPolicy` and `AuthInterceptor` (in `CourierInterceptors`) and `HTTPCache` (in
/// `CourierCache`) are interceptors, and so is `RequestAdapter` (in `CourierInterceptors`), which
/// wraps a closure that only changes the request.
public protocol Interceptor: Sendable {
    /// Handles one request.
    ///
    /// - Parameters:
    ///   - request: the request so far.
    ///   - context: the manager's context: events and the request as first built.
    ///   - next: the rest of the chain; call it to send. It may be kept and called after this
    ///     call returned (a cache revalidating in the background does); an implementation that
    ///     only calls it inline may declare it non-escaping.
    /// - Returns: the response to pass outwards.
    /// - Throws: `CourierError` (other errors are wrapped as `.interceptorFailed`).
    func intercept(
        _ request: TransportRequest,
        context: InterceptorContext,
        next: @escaping @Sendable (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse

    /// How long to wait before the call is made again after the body of its response failed
    /// part way, once the chain had returned the response; nil for no. A download asks, with
    /// its part kept, so that the next attempt resumes it. The default says no.
    /// - Parameters:
    ///   - error: what ended the body.
    ///   - request: the request whose response it was.
    ///   - attempts: the attempts made so far.
    func retryDelay(afterBodyFailure error: CourierError, of request: TransportRequest, attempts: Int)
        -> Duration?
}

extension Interceptor {
    /// No: a failed body ends the call.
    public func retryDelay(afterBodyFailure error: CourierError, of request: TransportRequest, attempts: Int)
        -> Duration?
    {
        nil
    }
}

/// What an interceptor knows about the exchange it runs in.
public struct InterceptorContext: Sendable {
    /// The request as the endpoint built it, before any interceptor changed it.
    public let originalRequest: TransportRequest
    /// The manager's base URL: the API's own origin.
    public let baseURL: URL?
    let monitors: [any EventMonitor]

    /// Creates a context. `NetworkManager` makes one per call; a test makes one to run an
    /// interceptor alone.
    /// - Parameters:
    ///   - originalRequest: the request as its endpoint built it.
    ///   - baseURL: the manager's base URL.
    ///   - monitors: the monitors `emit(_:)` reports to.
    public init(originalRequest: TransportRequest, baseURL: URL? = nil, monitors: [any EventMonitor] = []) {
        self.originalRequest = originalRequest
        self.baseURL = baseURL
        self.monitors = monitors
    }

    /// Reports an event to the manager's event monitors.
    public func emit(_ event: NetworkEvent) {
        for monitor in monitors { monitor.handle(event) }
    }
}
