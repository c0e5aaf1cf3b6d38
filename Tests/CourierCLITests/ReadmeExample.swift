import Courier
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

/// The API as an enum: one case per call, each a method, a path and typed parameters.
enum PostsAPI: APIConfigurable {
    case list(page: Int, size: Int)
    case post(id: String)
    case create(NewPost)

    var method: HTTPMethod {
        switch self {
        case .list, .post: .get
        case .create: .post
        }
    }

    var path: String {
        switch self {
        case .list, .create: "/posts"
        case .post(let id): "/posts/\(segment: id)"  // percent-encoded; "../x" is refused
        }
    }

    var parameters: any ParameterConvertible {
        switch self {
        case .list(let page, let size): URLQuery(["page": .int(page), "size": .int(size)])
        case .post: NoParameters()
        case .create(let post): JSONBody(post)
        }
    }
}

/// Creates a post and reads the first page back, over libcurl.
func createAndList(baseURL: URL) async throws -> (created: Post, page: [Post]) {
    var configuration = Configuration()  // or: try Configuration.load(from: courierJSON)
    configuration.baseURL = baseURL
    configuration.transport = .curl  // COURIER_TRANSPORT=urlsession would override a file's choice
    let transport = CurlTransport()
    let manager = NetworkManager(configuration: configuration, transport: transport)

    let created = try await manager.send(PostsAPI.create(NewPost(title: "Hello")), as: Post.self)
    let page = try await manager.send(PostsAPI.list(page: 1, size: 20), as: [Post].self)
    await transport.shutdown()
    return (created.value, page.value)
}
