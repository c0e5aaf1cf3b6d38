import Courier

/// An event monitor made from a closure.
public struct ClosureEventMonitor: EventMonitor {
    private let body: @Sendable (NetworkEvent) -> Void

    /// Creates a monitor that calls `body` for every event.
    public init(_ body: @escaping @Sendable (NetworkEvent) -> Void) { self.body = body }

    /// Calls the closure.
    public func handle(_ event: NetworkEvent) { body(event) }
}
