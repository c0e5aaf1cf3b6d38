import Courier
import CourierContract

/// Reading posts: by page number, a user's feed by cursor, newest-first keyset paging, one
/// post, and liking.
public enum PostsEndPoint: SocialAPIGroup {
    /// Posts whose page number is in `pageNumber ..< pageNumber + size`.
    public static func page(pageNumber: Int, size: Int? = nil) -> Endpoint<PostsPage> {
        endpoint(.get, "/posts", "Posts whose page number is in pageNumber ..< pageNumber + size") {
            Query(
                "pageNumber", pageNumber, .integer(minimum: 1, maximum: 1_000_000_000),
                "The first page number")
            Query("size", size, .integer(minimum: 1, maximum: 100), default: 5, "How many page numbers")
        }
    }

    /// A user's feed, newest first, `limit` at a time, continued after a cursor.
    public static func feed(userId: String, limit: Int? = nil, after: String? = nil) -> Endpoint<
        CursorPage<Post>
    > {
        endpoint(
            .get, "/users/{userId}/feed", "A user's feed, newest first, continued with a cursor", auth: true,
            errors: [403, 404]
        ) {
            Path("userId", userId, .identifier, "A user id")
            Query("limit", limit, .integer(minimum: 1, maximum: 100), default: 10, "How many items to return")
            Query("after", after, .cursor, "The nextCursor of the previous batch")
        }
    }

    /// The latest `limit` posts, or the `limit` before `before`.
    public static func latest(limit: Int? = nil, before: String? = nil) -> Endpoint<KeysetPage<Post>> {
        endpoint(.get, "/timeline", "The latest posts, then the ones before a key, until the oldest") {
            Query("limit", limit, .integer(minimum: 1, maximum: 100), default: 10, "How many items to return")
            Query("before", before, .postKey, "The nextKey of the previous batch")
        }
    }

    /// One post.
    public static func post(id: String) -> Endpoint<Post> {
        endpoint(.get, "/posts/{postId}", "One post", errors: [404]) {
            Path("postId", id, .identifier, "A post id")
        }
    }

    /// Like a post as the signed-in user (once per user).
    public static func like(id: String) -> Endpoint<Post> {
        endpoint(.post, "/posts/{postId}/like", "Like a post (once per user)", auth: true, errors: [404]) {
            Path("postId", id, .identifier, "A post id")
        }
    }

    /// `p-000006` is the first post of the mock server's sample data (after its five users).
    public static var samples: [any EndpointDescribing] {
        [
            page(pageNumber: 1, size: 5), feed(userId: "u-000001", limit: 5, after: "c12"),
            latest(limit: 5, before: "p-000010"), post(id: "p-000006"), like(id: "p-000006"),
        ]
    }
}
