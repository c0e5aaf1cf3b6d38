import Courier
import CourierContract
import CourierCurl
import Foundation

struct Post: Codable, Sendable, Equatable {
    var id: String
    var title: String
    var likes: Int
}

struct NewPost: Codable, Sendable {
    var title: String
}

/// The API, declared once: each function is one operation, and its return type is what it answers.
enum PostsAPI: API {
    static func list(page: Int, size: Int? = nil) -> Endpoint<[Post]> {
        endpoint(.get, "/posts", "Posts, a page at a time") {
            Query("page", page, .integer(minimum: 1))
            Query("size", size, .integer(minimum: 1, maximum: 100), default: 20)
        }
    }

    static func post(id: String) -> Endpoint<Post> {
        endpoint(.get, "/posts/{id}", "One post", errors: [404]) { Path("id", id) }  // "../x" is refused
    }

    static func create(_ post: NewPost) -> Endpoint<Post> {
        endpoint(.post, "/posts", "Write a post", status: 201) { Body(post) }
    }

    /// One call of each operation: what the OpenAPI document and the mock server are made from.
    static var samples: [any EndpointDescribing] {
        [list(page: 1), post(id: "p1"), create(NewPost(title: "Hi"))]
    }
}

/// Creates a post and reads the first page back, over libcurl.
func createAndList(baseURL: URL) async throws -> (created: Post, page: [Post]) {
    let transport = CurlTransport()  // or URLSessionTransport(); courier.json can choose (see below)
    let manager = NetworkManager(transport: transport, baseURL: baseURL)

    let created = try await manager.send(PostsAPI.create(NewPost(title: "Hello")))  // Response<Post>
    let page = try await manager.send(PostsAPI.list(page: 1))  // Response<[Post]>
    await transport.shutdown()
    return (created.value, page.value)
}
