// Must not compile: an Endpoint decodes as its own response type; `as:` cannot name another, and the
// error says so.
// error: 'send\(_:as:progress:\)' is unavailable: an Endpoint<T> already fixes its response type T; drop 'as:' and call send\(endpoint\)
import Courier
import CourierContract
import Endpoints

func wrongAs(_ manager: NetworkManager) async throws {
    _ = try await manager.send(PostsEndPoint.page(pageNumber: 1), as: [Post].self)
}
