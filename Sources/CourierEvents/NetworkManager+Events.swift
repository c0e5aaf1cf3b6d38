import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkManager {
    /// The server-sent events of `endpoint`, which must answer `text/event-stream`.
    ///
    /// Each connection goes through the pipeline of `stream(_:)` (interceptors, validation)
    /// with `Accept: text/event-stream`; a reconnection adds `Last-Event-ID` when the stream
    /// set an ID. Nothing is sent until the iteration starts.
    ///
    /// ```swift
    /// var updates: [String] = []
    /// for try await event in try manager.events(URLRequest(url: URL(string: "/notes/live")!)) {
    ///     if event.event == "note" { updates.append(event.data) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: the event stream.
    ///   - options: reconnection delays and limits.
    /// - Returns: the events, read as they are asked for.
    /// - Throws: `CourierError` with an invalid-request code when the request cannot be built;
    ///   the iteration throws as `ServerSentEvents.Iterator.next()` says.
    public func events(
        _ endpoint: some URLRequestConvertible, options: EventStreamOptions = EventStreamOptions()
    ) throws(CourierError) -> ServerSentEvents {
        var request: TransportRequest
        do {
            request = try makeRequest(endpoint)
        } catch {
            throw CourierError.wrapping(error, request: nil)
        }
        if !request.headers.contains("Accept") {
            request.headers.add(name: "Accept", value: "text/event-stream")
        }
        request.headers.replaceOrAdd(name: "Cache-Control", value: "no-cache")
        let built = request
        return ServerSentEvents(options: options) { [self] lastEventID throws(CourierError) in
            var attempt = built
            if !lastEventID.isEmpty {
                attempt.headers.replaceOrAdd(name: "Last-Event-ID", value: lastEventID)
            }
            return try await reportingFailure { try await streamed(attempt) }
        }
    }
}
