import Courier
import Endpoints
import Foundation
import MockServer

/// Everything the social backend knows, behind one lock in `SocialBackend`.
struct SocialState: Sendable {
    struct UserRecord: Sendable {
        var id: String
        var name: String
        var email: String
        var password: String
        var createdAt: Date
        var avatarFile: URL?
        /// The image type the avatar was uploaded as; served back as it came.
        var avatarType: String?
    }

    struct PostRecord: Sendable {
        var seq: Int
        var post: Post
        var likers: Set<String> = []
    }

    struct VideoRecord: Sendable {
        var owner: String
        var file: URL
        var size: Int64
        var etag: String
    }

    struct TokenRecord: Sendable {
        var userId: String
        var expiresAt: Date
    }

    struct IdempotentPublish: Sendable {
        var request: NewPost
        var postId: String
    }

    var users: [String: UserRecord] = [:]
    var userOrder: [String] = []
    var emailIndex: [String: String] = [:]
    var tokens: [String: TokenRecord] = [:]
    /// When `tokens` is next cleared of expired ones (see `issueSession`).
    var tokenPurgeAt = 1024
    var refreshTokens: [String: String] = [:]
    /// Oldest first; `seq` grows with every post.
    var posts: [PostRecord] = []
    var postIndex: [String: Int] = [:]
    /// Oldest first.
    var tweets: [Tweet] = []
    var videos: [String: VideoRecord] = [:]
    var publishes: [String: IdempotentPublish] = [:]
    var counter = 0

    mutating func nextNumber() -> Int {
        counter += 1
        return counter
    }

    func user(_ id: String, origin: String) -> User? {
        guard let record = users[id] else { return nil }
        return User(
            id: record.id, name: record.name, email: record.email,
            profileImageURL: record.avatarFile == nil
                ? nil : URL(string: "\(origin)/storage/avatars/\(record.id)"),
            createdAt: record.createdAt)
    }

    func post(at index: Int, origin: String) -> Post {
        var post = posts[index].post
        post.videoURL = URL(string: "\(origin)/storage/videos/\(post.video)")
        return post
    }

    /// The highest page number in use.
    var maxPageNumber: Int { posts.map(\.post.pageNumber).max() ?? 0 }
}
