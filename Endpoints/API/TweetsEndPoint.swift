import Courier

/// Tweets (seed 001): upload as the signed-in user, all newest first, one user's, and a user.
public enum TweetsEndPoint: ContractEndpoint {
    /// Upload a tweet; the server sets the author, 0 likes and the timestamp. Returns `Tweet`.
    case upload(caption: String)
    /// All tweets, newest first; returns `[Tweet]`.
    case all
    /// One user's tweets, newest first; returns `[Tweet]`.
    case byUser(userId: String)
    /// One user, for the author join; returns `User`.
    case user(id: String)

    public var operationID: String {
        switch self {
        case .upload: "tweets.upload"
        case .all: "tweets.all"
        case .byUser: "tweets.byUser"
        case .user: "tweets.user"
        }
    }

    public var method: HTTPMethod {
        switch self {
        case .upload: .post
        case .all, .byUser, .user: .get
        }
    }

    public var path: String {
        switch self {
        case .upload, .all: "/tweets"
        case .byUser(let userId): "/users/\(segment: userId)/tweets"
        case .user(let id): "/users/\(segment: id)"
        }
    }

    public var parameters: any ParameterConvertible {
        switch self {
        case .upload(let caption): JSONBody(NewTweet(caption: caption))
        case .all, .byUser, .user: NoParameters()
        }
    }

    public static var samples: [TweetsEndPoint] {
        [.upload(caption: "Hello"), .all, .byUser(userId: "u-000001"), .user(id: "u-000001")]
    }
}
