import Courier
import Synchronization

/// Counts the requests a manager sends (every attempt), for the demo's report.
package final class RequestCounter: EventMonitor {
    private let sent = Atomic<Int>(0)

    /// Creates a counter at zero.
    package init() {}

    /// Counts `requestSent` events.
    package func handle(_ event: NetworkEvent) {
        if case .requestSent = event { sent.add(1, ordering: .relaxed) }
    }

    /// How many requests were sent so far.
    package var count: Int { sent.load(ordering: .relaxed) }
}
