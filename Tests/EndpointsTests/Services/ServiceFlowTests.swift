import Courier
import CourierPrimitives
import CourierTesting
import Endpoints
import Foundation
import MockServer
import SocialBackend
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Service flows end to end")
struct ServiceFlowTests {
    @Test("the demo flow passes every step", arguments: TestTransport.allCases)
    func demoFlow(kind: TestTransport) async throws {
        let lines = Locked<[String]>([])
        let report = try await withSocialServer(seed: 17) { server, _ in
            await DemoRunner(
                transportName: kind.rawValue, transport: kind.make(), baseURL: server.baseURL,
                videoBytes: 1 << 20,
                output: { line in lines.withLock { $0.append(line) } }
            ).run()
        }
        #expect(report.passed, "\(report.formatted)")
        #expect(
            report.steps.map(\.name) == [
                "signup", "login", "cookies", "upload video", "publish", "first in feed", "paginate to end",
                "tweets with authors", "http cache", "cache hit on 2nd download",
            ])
        #expect(report.cacheHits == 2, "the profile twice from the cache")
        #expect(report.cacheRevalidations == 1, "the video after a 304")
        #expect(report.steps.first { $0.name == "http cache" }?.requests == 1)
        #expect(report.formatted.contains("http cache: 2 hits, 1 revalidations"))
        #expect(lines.withLock { $0.contains { $0.contains("100%") } }, "the progress bar reached 100 %")
        #expect(report.steps.first { $0.name == "paginate to end" }?.detail.hasPrefix("18 posts") == true)
    }

    @Test(
        "publishPost stores the video before the post and never saves it twice",
        arguments: TestTransport.allCases)
    func publishOnce(kind: TestTransport) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withSocialServer(seed: 3) { server, backend in
            let client = SocialClient(transport: kind.make(), baseURL: server.baseURL)
            try await UserRequest(client: client).login(
                email: "user2@example.com", password: SocialBackend.seedPassword)
            let file = folder.appendingPathComponent("v.mp4")
            try Data(repeating: 1, count: 200_000).write(to: file)
            let draft = Post.draft(video: "once.mp4", description: "once")
            let uploaded = Locked<Int64>(0)
            let first = try await VideoPostRequest(client: client).publishPost(post: draft, videoURL: file) {
                progress in
                uploaded.withLock { $0 = max($0, progress.completed) }
            }
            let retried = try await VideoPostRequest(client: client).publishPost(post: draft, videoURL: file)
            #expect(first.id == retried.id)
            #expect(backend.counts.posts == 4)
            #expect(uploaded.withLock { $0 } == 200_000)
            #expect(first.videoURL?.lastPathComponent == "once.mp4")

            let missing = folder.appendingPathComponent("missing.mp4")
            let error = await #expect(throws: SocialError.self) {
                try await VideoPostRequest(client: client).publishPost(
                    post: .draft(video: "never.mp4", description: "x"), videoURL: missing)
            }
            #expect(error?.category == .storage)
            #expect(backend.counts.posts == 4, "no post without its video")
        }
    }

    @Test("callbacks get typed values and categorised errors", arguments: TestTransport.allCases)
    func callbacks(kind: TestTransport) async throws {
        try await withSocialServer(seed: 8) { server, _ in
            let client = SocialClient(transport: kind.make(), baseURL: server.baseURL)
            let posts = PostsRequest(client: client)
            let pages: [Post] = try await withCheckedThrowingContinuation { continuation in
                posts.getPostsByPages(
                    pageNumber: 2, size: 3, success: { continuation.resume(returning: $0) },
                    failure: { continuation.resume(throwing: $0) })
            }
            #expect(pages.map(\.pageNumber) == [2, 3, 4])
            let error: SocialError = await withCheckedContinuation { continuation in
                posts.getPostsVideoURL(
                    name: "nope.mp4",
                    success: { _ in continuation.resume(returning: SocialError(.server, "no error")) },
                    failure: { continuation.resume(returning: $0) })
            }
            #expect(error.category == .notFound)
            let url = try await posts.getPostsVideoURL(name: "seed-001.mp4")
            #expect(url.path == "/storage/videos/seed-001.mp4")
            let unauthorized = await #expect(throws: SocialError.self) {
                try await UserRequest(client: client).currentUser()
            }
            #expect(unauthorized?.category == .unauthorized)
        }
    }

    @Test("a closed port is a connectivity error")
    func connectivity() async throws {
        // A port held bound but not listening: it refuses connections, and no other test's
        // server can take it (a stopped server's port can be reused at once).
        try await LoopbackPort.withRefusingPort { port in
            let client = SocialClient(
                transport: TestTransport.curl.make(),
                baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")))
            let error = await #expect(throws: SocialError.self) {
                try await PostsRequest(client: client).post(id: "p-1")
            }
            #expect(error?.category == .connectivity)
        }
    }

    @Test("tweets get their authors with one request per distinct author", arguments: TestTransport.allCases)
    func tweetAuthors(kind: TestTransport) async throws {
        try await withSocialServer(seed: 14) { server, _ in
            let counter = RequestCounter()
            let client = SocialClient(
                transport: kind.make(), baseURL: server.baseURL, eventMonitors: [counter])
            let service = TweetService(client: client)
            let tweets = try await service.fetchTweets()
            #expect(tweets.count == 14)
            #expect(tweets.allSatisfy { $0.user?.id == $0.uid })
            #expect(tweets.map(\.timestamp) == tweets.map(\.timestamp).sorted(by: >))
            #expect(counter.count == 1 + SocialBackend.seedUserCount)
            let mine = try await service.fetchTweets(for: "u-000002")
            #expect(
                !mine.isEmpty && mine.allSatisfy { $0.uid == "u-000002" && $0.user?.name == "Grace Hopper" })
            let uploaded: Bool = await withCheckedContinuation { continuation in
                service.uploadTweet(caption: "signed out") { continuation.resume(returning: $0) }
            }
            #expect(uploaded == false, "uploading needs a token")
        }
    }

    @Test(
        "profile images upload as multipart and download with status validation",
        arguments: TestTransport.allCases)
    func profileImages(kind: TestTransport) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withSocialServer(seed: 2) { server, _ in
            let client = SocialClient(transport: kind.make(), baseURL: server.baseURL)
            let users = UserRequest(client: client)
            try await users.login(email: "user3@example.com", password: SocialBackend.seedPassword)
            let image = folder.appendingPathComponent("avatar.jpg")
            let bytes = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0) })
            try bytes.write(to: image)
            let user = try await users.uploadProfileImage(file: image)
            let service = TweetService(client: client)
            #expect(try await service.profileImage(for: user) == bytes)
            let other = try await users.user(id: "u-000001")
            let none = await #expect(throws: SocialError.self) { try await service.profileImage(for: other) }
            #expect(none?.category == .notFound)
            var gone = user
            gone.profileImageURL = server.baseURL.appendingPathComponent("storage/avatars/u-999999")
            let missing = await #expect(throws: SocialError.self) {
                try await service.profileImage(for: gone)
            }
            #expect(missing?.category == .notFound)
            // A PNG comes back as a PNG.
            let png = folder.appendingPathComponent("avatar.png")
            try bytes.write(to: png)
            let withPNG = try await users.uploadProfileImage(file: png)
            let served = try await client.manager.sendRaw(
                URLRequest(url: try #require(withPNG.profileImageURL)))
            #expect(served.headers["Content-Type"] == "image/png")
            #expect(served.value == bytes)
        }
    }
}
