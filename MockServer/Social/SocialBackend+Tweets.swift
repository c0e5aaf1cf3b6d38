import Courier
import Endpoints
import Foundation
import MockServer

extension SocialBackend {
    func uploadTweet(_ form: NewTweet, userId: String) throws -> SocialResponse {
        let tweet = state.withLock { state -> Tweet in
            let tweet = Tweet(
                id: String(format: "t-%06d", state.nextNumber()), uid: userId, caption: form.caption,
                likes: 0,
                timestamp: Date())
            state.tweets.append(tweet)
            return tweet
        }
        return .json(tweet, status: 201)
    }

    /// Tweets newest first, all or one user's.
    func tweets(of userId: String?) -> SocialResponse {
        let tweets = state.withLock { state in
            state.tweets.reversed().filter { userId == nil || $0.uid == userId }
        }
        return .json(tweets)
    }

    func tweetsOfUser(_ userId: String) throws -> SocialResponse {
        guard state.withLock({ $0.users[userId] != nil }) else {
            throw SocialFailure.notFound("no user \(userId)")
        }
        return tweets(of: userId)
    }

    func user(id: String, origin: String) throws -> SocialResponse {
        guard let user = state.withLock({ $0.user(id, origin: origin) }) else {
            throw SocialFailure.notFound("no user \(id)")
        }
        // A profile changes rarely: clients may keep it for a minute.
        var response = SocialResponse.json(user)
        response.headers.append(("Cache-Control", "private, max-age=60"))
        return response
    }
}
