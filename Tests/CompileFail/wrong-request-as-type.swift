// Must not compile: the completion-handler form takes no `as:` for an Endpoint either, and says so.
// error: 'request\(_:as:success:failure:\)' is unavailable: an Endpoint<T> already fixes its response type T; drop 'as:' and call request\(endpoint, success:failure:\)
import Courier
import CourierContract
import Endpoints

func requestAs(_ manager: NetworkManager) {
    manager.request(
        PostsEndPoint.page(pageNumber: 1), as: PostsPage.self, success: { _ in }, failure: { _ in })
}
