import CourierPrimitives

/// A response another thread supplies later (a proxied stub's), so that the event loop answering the
/// request never waits for it: the connection keeps the request's place in line until ``complete(_:)``.
final class DeferredResponse: Sendable {
    private let state = Locked<
        (claimed: Bool, result: ServerResponse?, waiter: (@Sendable (ServerResponse) -> Void)?)
    >((false, nil, nil))

    /// Supplies the response; only the first call counts. Callable from any thread.
    /// - Parameter beforeDelivery: runs once, for the call that counts, before the connection can
    ///   send the response (so what it records is in place before the client sees the answer).
    /// - Returns: whether this call supplied it (false when it had been supplied already).
    @discardableResult
    func complete(_ response: ServerResponse, beforeDelivery: () -> Void = {}) -> Bool {
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
}
