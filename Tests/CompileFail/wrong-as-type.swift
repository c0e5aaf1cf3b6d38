// Must not compile: an Endpoint decodes as its own response type; `as:` cannot name another.
import Courier
import CourierContract
import Endpoints

func wrongAs(_ manager: NetworkManager) async throws {
    _ = try await manager.send(PostsEndPoint.page(pageNumber: 1), as: [Post].self)
}
