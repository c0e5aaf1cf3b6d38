import Foundation

/// A tweet in the Twitter-style timeline.
public struct Tweet: Codable, Sendable, Hashable, Identifiable {
    /// The server-assigned id, such as `t-000007`.
    public var id: String
    /// The author's user id.
    public var uid: String
    /// The text.
    public var caption: String
    /// How many likes it has; 0 when uploaded.
    public var likes: Int
    /// The server time it was uploaded.
    public var timestamp: Date
    /// The author, attached by `TweetService`; never sent by the server.
    public var user: User?

    /// Creates a tweet.
    public init(id: String, uid: String, caption: String, likes: Int, timestamp: Date, user: User? = nil) {
        self.id = id
        self.uid = uid
        self.caption = caption
        self.likes = likes
        self.timestamp = timestamp
        self.user = user
    }
}

/// The body of `TweetsEndPoint.upload`.
public struct NewTweet: Codable, Sendable, Hashable {
    /// The text, 1 to 280 characters.
    public var caption: String

    /// Creates a tweet to upload.
    public init(caption: String) { self.caption = caption }
}
