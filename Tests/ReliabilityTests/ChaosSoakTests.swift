import Courier
import CourierCurl
import CourierInterceptors
import Endpoints
import Foundation
import MockServer
import SocialBackend
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The services' flows against a mock server that injects faults into 20 % of requests (fixed seed), then
/// a check of the backend's state through a second, calm server on the same backend: what the client
/// believes happened did happen, exactly once.
///
/// Short by default; `COURIER_SOAK_SECONDS=60` runs each transport's soak for a minute.
@Suite(.timeLimit(.minutes(10)))
struct ChaosSoakTests {
    static let chaosRate = 0.2
    static let chaosSeed: UInt64 = 0xC0FFEE

    static var soakSeconds: Double {
        ProcessInfo.processInfo.environment["COURIER_SOAK_SECONDS"].flatMap(Double.init) ?? 2
    }

    /// What one simulated user's session believed and saw.
    struct Ledger: Sendable {
        /// Posts `publishPost` returned: draft id → (saved post, video bytes).
        var published: [String: (post: Post, video: Data)] = [:]
        /// Drafts whose publishing failed with an error (to be retried on the calm server).
        var failedDrafts: [String: (draft: Post, file: URL)] = [:]
        /// Captions `uploadTweet` confirmed.
        var tweets: Set<String> = []
        /// Captions whose upload failed with an error (the tweet may or may not exist).
        var failedTweets: Set<String> = []
        /// Every error the services threw.
        var errors: [SocialError] = []
        /// Page reads that succeeded.
        var pages = 0
        /// The user's credentials, to sign in again on the calm server.
        var email = ""
        var password = ""
    }

    @Test(arguments: TransportUnderTest.allCases)
    func servicesSurviveChaos(_ transport: TransportUnderTest) async throws {
        let backend = try SocialBackend(seedCount: 3)
        defer { backend.removeStorage() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-soak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A short request timeout bounds the stall of a half-sent upload (see ConnectionReuseTests).
        let chaotic = MockServerConfiguration(
            requestTimeout: .seconds(2), chaosRate: Self.chaosRate, chaosSeed: Self.chaosSeed)
        let retries = Counter()
        let stalls = Counter()
        let seconds = Self.soakSeconds
        try await withMockServer(handlers: [backend]) { calm in
            try await withMockServer(configuration: chaotic, handlers: [backend]) { server in
                try await transport.with { client in
                    let started = ContinuousClock.now
                    let ledgers = try await withDeadline(seconds: seconds + 120) {
                        try await withThrowingTaskGroup(of: Ledger.self) { group in
                            for user in 0..<2 {
                                group.addTask {
                                    try await Self.session(
                                        user: user, transport: client, baseURL: server.baseURL,
                                        folder: folder,
                                        seconds: seconds, retries: retries, stalls: stalls)
                                }
                            }
                            return try await group.reduce(into: [Ledger]()) { $0.append($1) }
                        }
                    }
                    let soaked = ContinuousClock.now
                    #expect(stalls.count == 0, "\(stalls.count) requests stalled until the server's 408")
                    try await Self.verify(
                        ledgers, transport: client, chaotic: server.baseURL, calm: calm.baseURL,
                        storage: backend.storageDirectory, retries: retries)
                    print(
                        "soak \(transport): \(seconds) s, published \(ledgers.map(\.published.count)), "
                            + "failed publishes \(ledgers.map(\.failedDrafts.count)) (republished), soak took \(soaked - started), , tweets \(ledgers.map(\.tweets.count)), "
                            + "failed tweets \(ledgers.map(\.failedTweets.count)), pages \(ledgers.map(\.pages)), "
                            + "errors \(ledgers.map(\.errors.count)), retries \(retries.count), 408 stalls \(stalls.count), "
                            + "verified in \(ContinuousClock.now - soaked)")
                }
            }
        }
    }

    /// A client with a quick retry policy (Retry-After is capped at 50 ms so the soak stays short).
    static func client(
        _ transport: any Transport, _ baseURL: URL, retries: Counter, stalls: Counter = Counter()
    ) -> SocialClient {
        SocialClient(
            transport: transport, baseURL: baseURL,
            interceptors: [RetryPolicy(maxAttempts: 6, baseDelay: .seconds(0.005), maxDelay: .seconds(0.05))],
            eventMonitors: [
                ClosureEventMonitor { event in
                    if case .retrying = event { retries.increment() }
                    // Chaos never answers 408: one comes from the server's request timeout.
                    if case .responseReceived(_, let response) = event, response.status == 408 {
                        stalls.increment()
                    }
                }
            ])
    }

    /// One user: sign up (or log in after a lost reply), then publish, tweet and page until time is up.
    static func session(
        user: Int, transport: any Transport, baseURL: URL, folder: URL, seconds: Double, retries: Counter,
        stalls: Counter
    ) async throws -> Ledger {
        let client = client(transport, baseURL, retries: retries, stalls: stalls)
        let users = UserRequest(client: client)
        var ledger = Ledger()
        let email = "soak\(user)-\(UUID().uuidString.prefix(6))@example.com"
        ledger.email = email
        ledger.password = "soak password \(user)"
        var signedIn = false
        for _ in 0..<20 where !signedIn {
            do {
                try await users.signup(name: "Soak \(user)", email: email, password: "soak password \(user)")
                signedIn = true
            } catch {
                ledger.errors.append(error)
                // A lost reply may hide a created account: log in instead.
                if let _ = try? await users.login(email: email, password: "soak password \(user)") {
                    signedIn = true
                }
            }
        }
        try #require(signedIn, "user \(user) could not sign in through chaos: \(ledger.errors.suffix(3))")
        let videos = VideoPostRequest(client: client)
        let tweets = TweetService(client: client)
        let posts = PostsRequest(client: client)
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var round = 0
        while ContinuousClock.now < end && round < 1000 {
            round += 1
            let tag = "u\(user)-r\(round)"
            let bytes = Data("video \(tag) \(UUID().uuidString)".utf8)
            let file = folder.appendingPathComponent("\(tag).mp4")
            try bytes.write(to: file)
            let draft = Post.draft(id: "draft-\(tag)", video: "\(tag).mp4", description: "post \(tag)")
            do {
                let saved = try await videos.publishPost(post: draft, videoURL: file)
                ledger.published[draft.id] = (saved, bytes)
            } catch {
                ledger.errors.append(error)
                ledger.failedDrafts[draft.id] = (draft, file)
            }
            let caption = "tweet \(tag) \(UUID().uuidString.prefix(8))"
            do {
                try await tweets.uploadTweet(caption: caption)
                ledger.tweets.insert(caption)
            } catch {
                ledger.errors.append(error)
                ledger.failedTweets.insert(caption)
            }
            do {
                let page = try await posts.getPostsByPages(pageNumber: 1, size: 5)
                #expect(Set(page.map(\.id)).count == page.count, "a page lists a post twice")
                ledger.pages += 1
            } catch {
                ledger.errors.append(error)
            }
        }
        return ledger
    }

    /// Checks the backend against the ledgers, through the calm server.
    static func verify(
        _ ledgers: [Ledger], transport: any Transport, chaotic: URL, calm: URL, storage: URL, retries: Counter
    ) async throws {
        // The app retries each failed publish with the same draft (the same Idempotency-Key), still through
        // chaos, until it succeeds: each must end with exactly one post, whether or not a failed attempt had
        // saved it. (Through the chaotic server: the post's video URL names the server it was uploaded to.)
        var published = ledgers.flatMap(\.published)
        for ledger in ledgers where !ledger.failedDrafts.isEmpty {
            let client = client(transport, chaotic, retries: retries)
            var signedIn = false
            for _ in 0..<20 where !signedIn {
                signedIn =
                    (try? await UserRequest(client: client).login(
                        email: ledger.email, password: ledger.password)) != nil
            }
            try #require(signedIn)
            for (draftID, failed) in ledger.failedDrafts {
                var saved: Post?
                for _ in 0..<20 where saved == nil {
                    saved = try? await VideoPostRequest(client: client).publishPost(
                        post: failed.draft, videoURL: failed.file)
                }
                let post = try #require(saved, "\(draftID) could not be published in 20 tries")
                published.append((draftID, (post, try Data(contentsOf: failed.file))))
            }
        }
        let manager = NetworkManager(transport: transport, baseURL: calm)
        var all: [Post] = []
        var before: String?
        for _ in 0..<1000 {
            let page = try await manager.send(
                PostsEndPoint.latest(limit: 50, before: before)
            )
            .value
            all += page.items
            guard let next = page.nextKey else { break }
            before = next
        }
        let byDescription = Dictionary(grouping: all, by: \.description)
        #expect(!ledgers.flatMap(\.published).isEmpty, "nothing was published through chaos")
        for (draftID, entry) in published {
            let copies = byDescription[entry.post.description] ?? []
            #expect(copies.count == 1, "\(draftID) exists \(copies.count) times")
            #expect(copies.first?.id == entry.post.id)
            #expect(copies.first?.video == entry.post.video)
            let url = calm.appendingPathComponent("storage/videos/\(entry.post.video)")
            do {
                let stored = try await manager.sendRaw(URLRequest(url: url))
                #expect(
                    stored.value == entry.video, "\(draftID): the stored video differs from the uploaded one")
            } catch {
                let folder = storage.appendingPathComponent("videos")
                let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                let onDisk = files.filter { $0.hasSuffix("-\(entry.post.video)") }
                Issue.record(
                    "\(draftID): its video cannot be downloaded (\(error.status ?? 0)); on disk: \(onDisk)")
            }
        }
        // No draft (one description each) was saved twice, whatever the client saw.
        for (description, copies) in byDescription where copies.count > 1 {
            Issue.record("post '\(description)' was saved \(copies.count) times")
        }
        let tweets = try await manager.send(TweetsEndPoint.all).value
        let captions = Dictionary(grouping: tweets, by: \.caption)
        for (caption, copies) in captions where copies.count > 1 {
            Issue.record("tweet '\(caption)' exists \(copies.count) times")
        }
        for caption in ledgers.flatMap(\.tweets) {
            #expect(captions[caption]?.count == 1, "confirmed tweet '\(caption)' is missing")
        }
        // Every tweet in the backend from the soak was either confirmed or reported as failed: none silent.
        let known = Set(ledgers.flatMap(\.tweets)).union(ledgers.flatMap(\.failedTweets))
        for caption in captions.keys where caption.hasPrefix("tweet u") {
            #expect(known.contains(caption), "tweet '\(caption)' exists but the client never heard of it")
        }
        for error in ledgers.flatMap(\.errors) {
            #expect(!error.message.isEmpty)
        }
        #expect(retries.count > 0, "chaos never made the client retry")
    }
}
