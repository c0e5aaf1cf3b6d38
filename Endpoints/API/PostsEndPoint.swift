import Courier

/// Reading posts: by page number (seed 000), a user's feed by cursor (seed 002),
/// newest-first keyset paging (seed 004), one post, and liking.
public enum PostsEndPoint: ContractEndpoint {
    /// Posts whose page number is in `pageNumber ..< pageNumber + size`; returns `PostsPage`.
    case page(pageNumber: Int, size: Int = 5)
    /// A user's feed, newest first, `limit` at a time, after a cursor; returns `CursorPage<Post>`.
    case feed(userId: String, limit: Int = 10, after: String? = nil)
    /// The latest `limit` posts, or the `limit` before `before`; returns `KeysetPage<Post>`.
    case latest(limit: Int = 10, before: String? = nil)
    /// One post; returns `Post`.
    case post(id: String)
    /// Like a post as the signed-in user; returns the `Post`.
    case like(id: String)

    public var operationID: String {
        switch self {
        case .page: "posts.page"
        case .feed: "posts.feed"
        case .latest: "posts.latest"
        case .post: "posts.post"
        case .like: "posts.like"
        }
    }

    public var method: HTTPMethod {
        switch self {
        case .page, .feed, .latest, .post: .get
        case .like: .post
        }
    }

    public var path: String {
        switch self {
        case .page: "/posts"
        case .feed(let userId, _, _): "/users/\(segment: userId)/feed"
        case .latest: "/timeline"
        case .post(let id): "/posts/\(segment: id)"
        case .like(let id): "/posts/\(segment: id)/like"
        }
    }

    public var parameters: any ParameterConvertible {
        switch self {
        case .page(let pageNumber, let size):
            URLQuery(["pageNumber": .int(pageNumber), "size": .int(size)])
        case .feed(_, let limit, let after):
            URLQuery(["limit": .int(limit), "after": after.map(ParameterValue.string) ?? .null])
        case .latest(let limit, let before):
            URLQuery(["limit": .int(limit), "before": before.map(ParameterValue.string) ?? .null])
        case .post, .like:
            NoParameters()
        }
    }

    public static var samples: [PostsEndPoint] {
        [
            .page(pageNumber: 1, size: 5), .feed(userId: "u-000001", limit: 5, after: "c12"),
            .latest(limit: 5, before: "p-000010"), .post(id: "p-000001"), .like(id: "p-000001"),
        ]
    }
}
