// Must compile: the control case, so a broken setup cannot pass for a rejected snippet.
import Courier
import CourierContract
import Endpoints

func rightType(_ manager: NetworkManager) async throws -> [Post] {
    let page: Response<PostsPage> = try await manager.send(PostsEndPoint.page(pageNumber: 1))
    return page.value.items
}
