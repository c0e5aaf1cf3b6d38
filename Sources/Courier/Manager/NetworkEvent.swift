import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Something that happened during an exchange, for logging and metrics.
public enum NetworkEvent: Sendable {
    /// An attempt is about to go to the transport; `attempt` counts from 1.
    case requestSent(TransportRequest, attempt: Int)
    /// The transport returned a response (of any status) for `request`.
    case responseReceived(TransportRequest, TransportResponse)
    /// A retry will start after `delay` seconds; `attempt` is the number of the attempt
    /// about to be made (2 for the first retry).
    case retrying(attempt: Int, delay: Duration)
    /// The call failed with this error (after any retries).
    case failed(CourierError)
}

/// Receives `NetworkEvent`s. Called synchronously on whatever thread the exchange runs;
/// keep it quick and hand heavy work elsewhere.
public protocol EventMonitor: Sendable {
    /// Handles one event.
    func handle(_ event: NetworkEvent)
}
