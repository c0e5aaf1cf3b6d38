// Must not compile: PostsEndPoint.page declares PostsPage as its response.
import Courier
import CourierContract
import Endpoints

func wrongType(_ manager: NetworkManager) async throws {
    let page: Response<[Post]> = try await manager.send(PostsEndPoint.page(pageNumber: 1))
    _ = page
}
