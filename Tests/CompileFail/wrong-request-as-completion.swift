// Must not compile: `request(_:as:completion:)` takes no `as:` for an Endpoint, and says so.
// error: 'request\(_:as:completion:\)' is unavailable: an Endpoint<T> already fixes its response type T; drop 'as:' and call request\(endpoint, completion:\)
import Courier
import CourierContract
import Endpoints

func requestAsCompletion(_ manager: NetworkManager) {
    manager.request(PostsEndPoint.page(pageNumber: 1), as: PostsPage.self) { _ in }
}
