import Courier
import CourierEvents
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Saves a large export as it arrives, then follows a live feed until the server answers 204.
func saveExportAndFollow(manager: NetworkManager, to file: FileHandle) async throws -> [ServerSentEvent] {
    let export = try await manager.stream(URLRequest(url: URL(string: "/export")!))
    for try await chunk in export.value {  // the transfer pauses while this loop is behind
        try file.write(contentsOf: chunk)
    }
    var events: [ServerSentEvent] = []
    let options = EventStreamOptions(initialRetry: .seconds(1), maxRetry: .seconds(30), maxReconnects: 5)
    for try await event in try manager.events(URLRequest(url: URL(string: "/live")!), options: options) {
        events.append(event)  // after a dropped connection it reconnects with Last-Event-ID
    }
    return events
}
