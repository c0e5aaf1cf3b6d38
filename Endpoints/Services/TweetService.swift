import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Tweets with their authors attached.
///
/// Rather than fetching each tweet's author one request at a time, authors are
/// fetched concurrently and once per distinct user.
public struct TweetService: Sendable {
    /// The client calls go through.
    public let client: SocialClient

    /// Creates the service.
    public init(client: SocialClient) { self.client = client }

    /// Uploads a tweet as the signed-in user; the server sets likes to 0 and the timestamp.
    /// - Throws: `SocialError` (`unauthorized` when signed out).
    @discardableResult
    public func uploadTweet(caption: String) async throws(SocialError) -> Tweet {
        try await client.call(TweetsEndPoint.upload(caption: caption))
    }

    /// Uploads a tweet and reports whether it worked.
    @discardableResult
    public func uploadTweet(caption: String, completion: @escaping @Sendable (Bool) -> Void) -> Task<
        Void, Never
    > {
        client.deliver(
            { try await uploadTweet(caption: caption) }, success: { _ in completion(true) },
            failure: { _ in completion(false) })
    }

    /// All tweets, newest first, each with its author.
    /// - Throws: `SocialError`.
    public func fetchTweets() async throws(SocialError) -> [Tweet] {
        try await attachAuthors(to: client.call(TweetsEndPoint.all))
    }

    /// All tweets with authors, delivered as a `Result`.
    @discardableResult
    public func fetchTweets(completion: @escaping @Sendable (Result<[Tweet], SocialError>) -> Void) -> Task<
        Void, Never
    > {
        client.deliver(
            { try await fetchTweets() }, success: { completion(.success($0)) },
            failure: { completion(.failure($0)) })
    }

    /// One user's tweets, newest first, each with its author.
    /// - Throws: `SocialError` (`notFound` for an unknown user).
    public func fetchTweets(for uid: String) async throws(SocialError) -> [Tweet] {
        try await attachAuthors(to: client.call(TweetsEndPoint.byUser(userId: uid)))
    }

    /// One user's tweets with authors, delivered as a `Result`.
    @discardableResult
    public func fetchTweets(
        for uid: String, completion: @escaping @Sendable (Result<[Tweet], SocialError>) -> Void
    ) -> Task<Void, Never> {
        client.deliver(
            { try await fetchTweets(for: uid) }, success: { completion(.success($0)) },
            failure: { completion(.failure($0)) })
    }

    /// Attaches each tweet's author, fetching every distinct author once, concurrently.
    /// A tweet whose author cannot be fetched keeps `user == nil`.
    /// - Throws: `SocialError.Category.connectivity` when the network fails.
    public func attachAuthors(to tweets: [Tweet]) async throws(SocialError) -> [Tweet] {
        let ids = Array(Set(tweets.map(\.uid)))
        let client = self.client
        let users: [String: User]
        do {
            users = try await withThrowingTaskGroup(of: User?.self) { group in
                for id in ids {
                    group.addTask {
                        do {
                            return try await client.call(TweetsEndPoint.user(id: id))
                        } catch let error as SocialError where error.category == .notFound {
                            return nil
                        }
                    }
                }
                var found: [String: User] = [:]
                for try await user in group {
                    if let user { found[user.id] = user }
                }
                return found
            }
        } catch {
            throw SocialError(error)
        }
        return tweets.map { tweet in
            var tweet = tweet
            tweet.user = users[tweet.uid]
            return tweet
        }
    }

    /// Downloads a user's profile image, accepting only a 2xx or 3xx status with a non-empty body.
    /// - Throws: `SocialError` (`notFound` when the user has none, `storage` when the download fails).
    public func profileImage(for user: User) async throws(SocialError) -> Data {
        guard let url = user.profileImageURL else {
            throw SocialError(.notFound, "\(user.name) has no profile image")
        }
        let data: Data
        do {
            let response = try await client.manager.sendRaw(URLRequest(url: url))
            guard (200..<400).contains(response.status), !response.value.isEmpty else {
                throw SocialError(
                    .storage,
                    "the profile image answered \(response.status) with \(response.value.count) bytes")
            }
            data = response.value
        } catch {
            throw SocialError(error, storage: true)
        }
        return data
    }
}
