import CourierPrimitives

/// A response another thread supplies later, so that the event loop answering the request never waits
/// for it: the connection keeps the request's place in line (pipelined requests after it are answered
/// in order) until ``complete(_:beforeDelivery:)``. A handler that needs to wait (for another service,
/// a timer, a file) returns ``ServerResponse/deferred(_:)`` or ``ServerResponse/later(_:)`` rather than
/// blocking a loop.
///
/// ```swift
/// let slow = ClosureHandler { request in
///     guard request.path == "/report" else { return nil }
///     return .later {
///         try? await Task.sleep(for: .milliseconds(200))
///         return .text("ready", status: 200)
///     }
/// }
/// ```
public final class DeferredResponse: Sendable {
    private let state = Locked<
        (claimed: Bool, result: ServerResponse?, waiter: (@Sendable (ServerResponse) -> Void)?)
    >((false, nil, nil))

    /// A response still to be supplied.
    public init() {}

    /// Supplies the response; only the first call counts. Callable from any thread.
    /// - Parameters:
    ///   - response: the response to send (it may not itself be deferred).
    ///   - beforeDelivery: runs once, for the call that counts, before the connection can send the
    ///     response (so what it records is in place before the client sees the answer).
    /// - Returns: whether this call supplied it (false when it had been supplied already).
    @discardableResult
    public func complete(_ response: ServerResponse, beforeDelivery: () -> Void = {}) -> Bool {
        let won = state.withLock { state in
            guard !state.claimed else { return false }
            state.claimed = true
            return true
        }
        guard won else { return false }
        beforeDelivery()
        let waiter = state.withLock { state in
            state.result = response
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?(response)
        return true
    }

    /// Calls `body` once with the response: now if it is there, else when it is supplied.
    func whenComplete(_ body: @escaping @Sendable (ServerResponse) -> Void) {
        let ready: ServerResponse? = state.withLock { state in
            if let result = state.result { return result }
            state.waiter = body
            return nil
        }
        if let ready { body(ready) }
    }
}

extension ServerResponse {
    /// A placeholder answered later by `deferred`.
    init(deferred: DeferredResponse) {
        self.init(status: 200)
        self.deferred = deferred
    }

    /// The response `deferred` supplies, whenever it does.
    /// - Parameter deferred: completed by another thread or task.
    public static func deferred(_ deferred: DeferredResponse) -> ServerResponse {
        ServerResponse(deferred: deferred)
    }

    /// The response an async task makes: the loop goes on serving other connections while `respond`
    /// runs.
    /// - Parameter respond: makes the response; it runs as a task of its own.
    public static func later(_ respond: @escaping @Sendable () async -> ServerResponse) -> ServerResponse {
        let deferred = DeferredResponse()
        Task { deferred.complete(await respond()) }
        return ServerResponse(deferred: deferred)
    }
}
