import Courier
import CourierCache
import Foundation

/// Runs the whole social flow over one transport and reports each step:
/// signup → login → upload a video (with a progress bar) → publish → the post is first in
/// the feed → paginate the feed to its end with no duplicates → tweets with their authors →
/// the session cookie back on `GET /me` → a profile served by the HTTP cache → the second
/// download of the video revalidated. The report ends with the cache's hit and revalidation counts.
///
/// ```swift
/// // not compiled: DemoRunner is package API, which code outside the package cannot reach
/// let runner = DemoRunner(transportName: "curl", transport: CurlTransport(), baseURL: server.baseURL)
/// let report = await runner.run()
/// ```
package struct DemoRunner: Sendable {
    /// The transport's name for the report.
    package let transportName: String
    /// The transport requests go through.
    package let transport: any Transport
    /// The social API's base URL.
    package let baseURL: URL
    /// Where the sample video and the video cache go.
    package let workDirectory: URL
    /// The sample video's size in bytes.
    package let videoBytes: Int
    /// Receives progress-bar lines as they are drawn.
    package let output: @Sendable (String) -> Void

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - transportName: the name shown in the report.
    ///   - transport: the transport under test.
    ///   - baseURL: the social API's base URL (the mock server's, or yours).
    ///   - workDirectory: a folder for the sample video and cache; default a fresh temporary one.
    ///   - videoBytes: the sample video's size; default 4 MiB.
    ///   - output: receives the progress bar; default discards it.
    package init(
        transportName: String, transport: any Transport, baseURL: URL, workDirectory: URL? = nil,
        videoBytes: Int = 4 << 20, output: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.transportName = transportName
        self.transport = transport
        self.baseURL = baseURL
        self.workDirectory =
            workDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "courier-demo-\(UUID().uuidString)")
        self.videoBytes = videoBytes
        self.output = output
    }

    /// Runs the flow. A failed step stops the run; the report says which.
    package func run() async -> DemoReport {
        let counter = RequestCounter()
        let client = SocialClient(transport: transport, baseURL: baseURL, eventMonitors: [counter])
        var flow = DemoFlow(client: client, counter: counter, report: DemoReport(transport: transportName))
        do {
            try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: workDirectory) }
            try await flow.run(in: workDirectory, videoBytes: videoBytes, output: output)
        } catch {
            flow.report.steps.append(
                .init(name: "setup", passed: false, detail: "\(error)", requests: 0, seconds: 0))
        }
        return flow.report
    }
}

/// The flow's state between steps.
struct DemoFlow {
    struct StepFailure: Error, CustomStringConvertible {
        var description: String
    }

    let client: SocialClient
    let counter: RequestCounter
    var report: DemoReport

    /// Runs `body` as a step named `name`; returns its value, or `nil` when it failed.
    mutating func step<T>(_ name: String, _ body: () async throws -> (T, String)) async -> T? {
        let before = counter.count
        let start = ContinuousClock.now
        let result: T?
        let passed: Bool
        let detail: String
        do {
            let (value, text) = try await body()
            (result, passed, detail) = (value, true, text)
        } catch {
            (result, passed, detail) = (nil, false, "\(error)")
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        report.steps.append(
            .init(
                name: name, passed: passed, detail: detail, requests: counter.count - before, seconds: seconds
            ))
        return result
    }

    static func check(_ condition: Bool, _ message: String) throws {
        if !condition { throw StepFailure(description: message) }
    }

    mutating func run(in directory: URL, videoBytes: Int, output: @escaping @Sendable (String) -> Void)
        async throws
    {
        let client = self.client
        let counter = self.counter
        let users = UserRequest(client: client)
        let email = "demo-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let password = "demo-password"
        guard
            (await step("signup") {
                let session = try await users.signup(name: "Demo User", email: email, password: password)
                return ((), "created \(session.user.id) <\(email)>")
            }) != nil,
            let me = await step(
                "login",
                {
                    let session = try await users.login(email: email, password: password)
                    return (
                        session.user,
                        "token expires \(ISO8601DateFormatter().string(from: session.expiresAt))"
                    )
                })
        else { return }

        guard
            (await step("cookies") {
                let cookie = client.manager.baseURL.flatMap {
                    client.manager.cookieJar?.cookies(for: $0).first
                }
                let response = try await client.manager.send(OnboardingEndPoint.me)
                try Self.check(cookie != nil, "login set no cookie")
                try Self.check(
                    response.headers["X-Session-Cookie"] == "recognised",
                    "GET /me did not carry the session cookie")
                return ((), "login set \(cookie?.name ?? "?") (HttpOnly); the jar sent it back on GET /me")
            }) != nil
        else { return }

        let videoFile = directory.appendingPathComponent("demo.mp4")
        try Data((0..<videoBytes).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }).write(to: videoFile)
        let publisher = VideoPostRequest(client: client)
        let draft = Post.draft(
            video: "demo-\(UUID().uuidString.prefix(8).lowercased()).mp4", description: "Courier demo")
        let bar = ProgressBar(output: output)
        guard
            let downloadURL = await step(
                "upload video",
                {
                    let url = try await publisher.uploadVideo(name: draft.video, file: videoFile) {
                        bar.update($0)
                    }
                    return (url, "\(videoBytes / 1024) KiB streamed from disk → \(url.path)")
                }),
            let post = await step(
                "publish",
                {
                    let post = try await publisher.save(post: draft, videoURL: downloadURL)
                    let again = try await publisher.save(post: draft, videoURL: downloadURL)
                    try Self.check(
                        again.id == post.id, "retrying the publish saved a second post \(again.id)")
                    return (post, "\(post.id), retry with the same Idempotency-Key saved nothing new")
                })
        else { return }

        let feed = Paginator.feed(client: client, userId: me.id, limit: 5)
        guard
            let firstPage = await step(
                "first in feed",
                {
                    let first = try await feed.nextPage() ?? []
                    try Self.check(
                        first.first?.id == post.id, "the feed starts with \(first.first?.id ?? "nothing")")
                    return (first, "\(post.id) tops the feed")
                }),
            (await step("paginate to end") {
                var ids = firstPage.map(\.id)
                var pages = 1
                while let page = try await feed.nextPage() {
                    ids += page.map(\.id)
                    pages += 1
                }
                try Self.check(Set(ids).count == ids.count, "a post was repeated")
                return ((), "\(ids.count) posts in \(pages) pages, none repeated")
            }) != nil
        else { return }

        let tweets = TweetService(client: client)
        guard
            (await step("tweets with authors") {
                try await tweets.uploadTweet(caption: "Hello from the Courier demo")
                let before = counter.count
                let all = try await tweets.fetchTweets()
                let authors = Set(all.map(\.uid)).count
                try Self.check(all.allSatisfy { $0.user != nil }, "a tweet has no author")
                try Self.check(all.first?.uid == me.id, "the new tweet is not first")
                let requests = counter.count - before
                try Self.check(requests == 1 + authors, "\(requests) requests for \(authors) authors")
                return ((), "\(all.count) tweets, \(authors) authors fetched once each, concurrently")
            }) != nil
        else { return }

        let httpCache = try HTTPCache(directory: directory.appendingPathComponent("http-cache"))
        let videos = try VideoCache(
            directory: directory.appendingPathComponent("cache"), manager: client.manager)
        defer {
            report.cacheHits = httpCache.statistics.hits + videos.cache.statistics.hits
            report.cacheRevalidations =
                httpCache.statistics.revalidations + videos.cache.statistics.revalidations
        }
        _ = await step("http cache") {
            let manager = client.manager
            var settings = manager.settings
            settings.interceptors.append(httpCache)
            let cached = NetworkManager(transport: manager.transport, settings: settings)
            var sources: [ResponseSource] = []
            for _ in 0..<3 { sources.append(try await cached.send(TweetsEndPoint.user(id: me.id)).source) }
            try Self.check(sources == [.network, .cache, .cache], "the profile came from \(sources)")
            return ((), "GET /users/\(me.id) ×3: network, then cache twice (max-age=60)")
        }
        _ = await step("cache hit on 2nd download") {
            let cache = videos
            guard let url = post.videoURL else { throw StepFailure(description: "the post has no video URL") }
            let first = try await cache.video(at: url)
            let second = try await cache.video(at: url)
            try Self.check(first.source == .network, "first download came from \(first.source)")
            try Self.check(second.source != .network, "second download came from the network")
            try Self.check(first.size == Int64(videoBytes), "downloaded \(first.size) of \(videoBytes) bytes")
            return ((), "1st: network (\(first.size / 1024) KiB), 2nd: \(second.source.rawValue) (304)")
        }
    }
}
