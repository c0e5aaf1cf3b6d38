// Must not compile: `as:` is refused even when it names the endpoint's own response type, with an
// error that says to drop it.
// error: 'send\(_:as:progress:\)' is unavailable: an Endpoint<T> already fixes its response type T; drop 'as:' and call send\(endpoint\)
import Courier
import CourierContract
import Endpoints

func ownTypeAs(_ manager: NetworkManager) async throws {
    _ = try await manager.send(PostsEndPoint.page(pageNumber: 1), as: PostsPage.self)
}
