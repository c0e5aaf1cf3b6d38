import Foundation

/// A video post in the TikTok-style feed.
public struct Post: Codable, Sendable, Hashable, Identifiable {
    /// The server-assigned id, such as `p-000042`.
    public var id: String
    /// The id of the user who published it.
    public var authorId: String
    /// The author's display name at publishing time.
    public var authorName: String
    /// The video's file name in storage, with its extension (`Videos/{video}`).
    public var video: String
    /// The video's download URL.
    public var videoURL: URL?
    /// The caption.
    public var description: String
    /// How many likes it has.
    public var likes: Int
    /// How many comments it has.
    public var comments: Int
    /// Its page number for page-range listing; grows with every new post.
    public var pageNumber: Int
    /// When it was published.
    public var createdAt: Date

    /// Creates a post.
    public init(
        id: String, authorId: String, authorName: String, video: String, videoURL: URL?,
        description: String, likes: Int, comments: Int, pageNumber: Int, createdAt: Date
    ) {
        self.id = id
        self.authorId = authorId
        self.authorName = authorName
        self.video = video
        self.videoURL = videoURL
        self.description = description
        self.likes = likes
        self.comments = comments
        self.pageNumber = pageNumber
        self.createdAt = createdAt
    }
}

/// The body of `UploadEndPoint.publish`: a post's metadata, the video already stored.
public struct NewPost: Codable, Sendable, Hashable {
    /// The stored video's file name.
    public var video: String
    /// The stored video's download URL, as `UploadEndPoint.videoURL` returned it.
    public var videoURL: URL
    /// The caption.
    public var description: String

    /// Creates a post to publish.
    public init(video: String, videoURL: URL, description: String) {
        self.video = video
        self.videoURL = videoURL
        self.description = description
    }
}

extension Post {
    /// A post not yet published, as an app builds one before `publishPost`: the
    /// server fills in the author, counts, page number and date.
    ///
    /// - Parameters:
    ///   - id: a client-made id; `publishPost` uses it as the idempotency key.
    ///   - video: the storage file name, with its extension.
    ///   - description: the caption.
    public static func draft(id: String = UUID().uuidString, video: String, description: String) -> Post {
        Post(
            id: id, authorId: "", authorName: "", video: video, videoURL: nil, description: description,
            likes: 0,
            comments: 0, pageNumber: 1, createdAt: Date())
    }
}
