import Courier
import Foundation

/// Reading posts and their videos' URLs, with callbacks or async.
public struct PostsRequest: Sendable {
    /// The client calls go through.
    public let client: SocialClient

    /// Creates the service.
    public init(client: SocialClient) { self.client = client }

    /// Posts whose page number is in `pageNumber ..< pageNumber + size`, ascending.
    /// - Throws: `SocialError`.
    public func getPostsByPages(pageNumber: Int, size: Int = 5) async throws(SocialError) -> [Post] {
        try await client.call(PostsEndPoint.page(pageNumber: pageNumber, size: size))
            .items
    }

    /// Posts whose page number is in `pageNumber ..< pageNumber + size`, delivered to
    /// `success` or `failure` on the manager's callback queue.
    @discardableResult
    public func getPostsByPages(
        pageNumber: Int, size: Int = 5, success: @escaping @Sendable ([Post]) -> Void,
        failure: @escaping @Sendable (SocialError) -> Void
    ) -> Task<Void, Never> {
        client.deliver(
            { try await getPostsByPages(pageNumber: pageNumber, size: size) }, success: success,
            failure: failure)
    }

    /// The download URL of the stored video `name` (with its extension).
    /// - Throws: `SocialError` (`notFound` when no such video is stored).
    public func getPostsVideoURL(name: String) async throws(SocialError) -> URL {
        try await client.call(UploadEndPoint.videoURL(name: name), storage: true).url
    }

    /// The download URL of the stored video `name`, delivered to `success` or `failure`.
    @discardableResult
    public func getPostsVideoURL(
        name: String, success: @escaping @Sendable (URL) -> Void,
        failure: @escaping @Sendable (SocialError) -> Void
    ) -> Task<Void, Never> {
        client.deliver({ try await getPostsVideoURL(name: name) }, success: success, failure: failure)
    }

    /// One post.
    /// - Throws: `SocialError` (`notFound` for an unknown id).
    public func post(id: String) async throws(SocialError) -> Post {
        try await client.call(PostsEndPoint.post(id: id))
    }

    /// Likes a post as the signed-in user (once per user) and returns it.
    /// - Throws: `SocialError`.
    public func like(id: String) async throws(SocialError) -> Post {
        try await client.call(PostsEndPoint.like(id: id))
    }
}
