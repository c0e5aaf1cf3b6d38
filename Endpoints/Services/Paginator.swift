import Courier
import Foundation

/// The social API's three paging styles as `Paginator`s.
extension Paginator where Item == Post {
    /// Posts by page number, `size` page numbers at a time, from page 1.
    public static func pages(client: SocialClient, size: Int = 5) -> Paginator<Post> {
        Paginator { token throws(SocialError) in
            let number = token.flatMap { Int($0) } ?? 1
            let page = try await client.call(
                PostsEndPoint.page(pageNumber: number, size: size))
            return (page.items, page.nextPageNumber.map(String.init))
        }
    }

    /// A user's feed by cursor, newest first, `limit` at a time.
    public static func feed(client: SocialClient, userId: String, limit: Int = 10) -> Paginator<Post> {
        Paginator { token throws(SocialError) in
            let page = try await client.call(
                PostsEndPoint.feed(userId: userId, limit: limit, after: token))
            return (page.items, page.nextCursor)
        }
    }

    /// The latest posts, then the ones before the last key, until the oldest.
    public static func latest(client: SocialClient, limit: Int = 10) -> Paginator<Post> {
        Paginator { token throws(SocialError) in
            let page = try await client.call(
                PostsEndPoint.latest(limit: limit, before: token))
            return (page.items, page.nextKey)
        }
    }
}
