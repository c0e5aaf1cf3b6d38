/// Something that may answer a request.
///
/// Handlers are synchronous and are called on one of the server's event-loop threads, so they must be
/// quick: no sleeping, no waiting on the network. Use ``ServerResponse/delay`` to answer late.
public protocol HTTPHandler: Sendable {
    /// Answers `request`, or returns nil to let the next handler try.
    /// - Parameter request: the complete request.
    /// - Returns: the response, or nil when this handler does not serve the request.
    func handle(_ request: ServerRequest) -> ServerResponse?

    /// Looks at every request before stubs are tried, and returns a response to refuse it
    /// there (a request that breaks an API's declaration), or nil to let it through. The
    /// default lets everything through.
    func gate(_ request: ServerRequest) -> ServerResponse?
}

/// A handler made from a closure.
extension HTTPHandler {
    public func gate(_ request: ServerRequest) -> ServerResponse? { nil }
}

public struct ClosureHandler: HTTPHandler {
    private let body: @Sendable (ServerRequest) -> ServerResponse?

    /// Creates a handler.
    /// - Parameter body: answers a request or returns nil.
    public init(_ body: @escaping @Sendable (ServerRequest) -> ServerResponse?) {
        self.body = body
    }

    /// Calls the closure.
    public func handle(_ request: ServerRequest) -> ServerResponse? {
        body(request)
    }
}
