import CourierPrimitives

/// A response another thread supplies later (a proxied stub's), so that the event loop answering the
/// request never waits for it: the connection keeps the request's place in line until ``complete(_:)``.
final class DeferredResponse: Sendable {
    private let state = Locked<(result: ServerResponse?, waiter: (@Sendable (ServerResponse) -> Void)?)>(
        (nil, nil))

    /// Supplies the response; only the first call counts. Callable from any thread.
    /// - Returns: whether this call supplied it (false when it had been supplied already).
    @discardableResult
    func complete(_ response: ServerResponse) -> Bool {
        let outcome: (won: Bool, waiter: (@Sendable (ServerResponse) -> Void)?) = state.withLock { state in
            guard state.result == nil else { return (false, nil) }
            state.result = response
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        outcome.waiter?(response)
        return outcome.won
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
