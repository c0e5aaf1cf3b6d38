import Courier
import CourierContract

/// Tweets: post one, read them all or one user's, and read a user.
public enum TweetsEndPoint: SocialAPIGroup {
    /// Upload a tweet as the signed-in user.
    public static func upload(caption: String) -> Endpoint<Tweet> {
        endpoint(.post, "/tweets", "Upload a tweet as the signed-in user", status: 201, auth: true) {
            Body(NewTweet(caption: caption))
        }
    }

    /// All tweets, newest first.
    public static var all: Endpoint<[Tweet]> {
        endpoint(.get, "/tweets", "All tweets, newest first") {}
    }

    /// One user's tweets, newest first.
    public static func byUser(userId: String) -> Endpoint<[Tweet]> {
        endpoint(.get, "/users/{userId}/tweets", "One user's tweets, newest first", errors: [404]) {
            Path("userId", userId, .identifier, "A user id")
        }
    }

    /// One user.
    public static func user(id: String) -> Endpoint<User> {
        endpoint(.get, "/users/{userId}", "One user", errors: [404]) {
            Path("userId", id, .identifier, "A user id")
        }
    }

    public static var samples: [any EndpointDescribing] {
        [upload(caption: "Hello"), all, byUser(userId: "u-000001"), user(id: "u-000001")]
    }
}
