import Courier
import Synchronization

/// Counts the requests a manager sends (every attempt), for the demo's report.
public final class RequestCounter: EventMonitor {
    private let sent = Atomic<Int>(0)

    /// Creates a counter at zero.
    public init() {}

    /// Counts `requestSent` events.
    public func handle(_ event: NetworkEvent) {
        if case .requestSent = event { sent.add(1, ordering: .relaxed) }
    }

    /// How many requests were sent so far.
    public var count: Int { sent.load(ordering: .relaxed) }
}
