import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import Endpoints
import Foundation
import MockServer
import SocialBackend
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every endpoint case over every transport against the mock server: the request is
/// accepted (the backend validates it by the contract), the response decodes and matches
/// the operation's schema, and the errors are the documented ones.
@Suite("Every endpoint case over each transport")
struct EndpointOverTransportTests {
    /// Sends `endpoint`, checks the status is the operation's success status and the body
    /// matches its schema, and decodes it.
    static func expectConforming<T>(
        _ endpoint: Endpoint<T>, manager: NetworkManager,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> T {
        let operation = endpoint.operation
        let raw = try await manager.sendRaw(endpoint)
        #expect(raw.status == operation.successStatus, "\(operation.id)", sourceLocation: sourceLocation)
        let schema = try #require(operation.responses.first?.schema, sourceLocation: sourceLocation)
        let problem = schema.violation(of: try JSONValue.parse(raw.value), at: "response")
        #expect(
            problem == nil, "\(operation.id): \(String(describing: problem))", sourceLocation: sourceLocation)
        return try JSONDecoder.courier.decode(T.self, from: raw.value)
    }

    /// Sends `endpoint` expecting a documented error status with an `APIErrorBody`.
    static func expectError(
        _ endpoint: some EndpointDescribing, status: Int, manager: NetworkManager,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> APIErrorBody? {
        let operation = endpoint.operation
        #expect(
            operation.responses.contains { $0.status == status }, "\(operation.id) documents \(status)",
            sourceLocation: sourceLocation)
        let error = await #expect(throws: CourierError.self, sourceLocation: sourceLocation) {
            try await manager.sendRaw(endpoint)
        }
        #expect(error?.status == status, "\(operation.id)", sourceLocation: sourceLocation)
        return error?.body.flatMap { try? JSONDecoder().decode(APIErrorBody.self, from: $0) }
    }

    @Test("every case conforms and decodes", arguments: TestTransport.allCases)
    func everyCase(kind: TestTransport) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withSocialServer { server, _ in
            let plain = NetworkManager(transport: kind.make(), baseURL: server.baseURL)
            let email = "case-\(kind.rawValue)@example.com"
            let signedUp = try await Self.expectConforming(
                OnboardingEndPoint.signup(name: "Case", email: email, password: "secret1"),
                manager: plain)
            let session = try await Self.expectConforming(
                OnboardingEndPoint.login(email: email, password: "secret1"),
                manager: plain)
            #expect(session.user == signedUp.user)
            let refreshed = try await Self.expectConforming(
                OnboardingEndPoint.refresh(refreshToken: session.refreshToken),
                manager: plain)
            let authed = NetworkManager(
                transport: kind.make(), baseURL: server.baseURL,
                defaultHeaders: ["Authorization": "Bearer \(refreshed.token)"])
            let me = try await Self.expectConforming(OnboardingEndPoint.me, manager: authed)
            #expect(me.id == session.user.id)

            let page = try await Self.expectConforming(
                PostsEndPoint.page(pageNumber: 1, size: 5), manager: plain)
            #expect(page.items.map(\.pageNumber) == [1, 2, 3, 4, 5])
            let feed = try await Self.expectConforming(
                PostsEndPoint.feed(userId: me.id, limit: 4), manager: authed)
            #expect(feed.items.count == 4)
            let latest = try await Self.expectConforming(
                PostsEndPoint.latest(limit: 3, before: feed.items.last?.id),
                manager: plain)
            #expect(latest.items.count == 3)
            let post = try await Self.expectConforming(
                PostsEndPoint.post(id: "p-000006"), manager: plain)
            let liked = try await Self.expectConforming(
                PostsEndPoint.like(id: post.id), manager: authed)
            #expect(liked.likes == post.likes + 1)

            let tweet = try await Self.expectConforming(
                TweetsEndPoint.upload(caption: "hi"), manager: authed)
            #expect(tweet.uid == me.id && tweet.likes == 0)
            let all = try await Self.expectConforming(TweetsEndPoint.all, manager: plain)
            #expect(all.first?.id == tweet.id)
            let mine = try await Self.expectConforming(
                TweetsEndPoint.byUser(userId: me.id), manager: plain)
            #expect(mine.map(\.id) == [tweet.id])
            _ = try await Self.expectConforming(TweetsEndPoint.user(id: me.id), manager: plain)

            let video = folder.appendingPathComponent("clip.mp4")
            try Data(repeating: 7, count: 300_000).write(to: video)
            let stored = try await Self.expectConforming(
                UploadEndPoint.video(name: "case-\(kind.rawValue).mp4", file: video),
                manager: authed)
            #expect(stored.size == 300_000)
            let link = try await Self.expectConforming(
                UploadEndPoint.videoURL(name: stored.name), manager: plain)
            let published = try await Self.expectConforming(
                UploadEndPoint.publish(
                    post: NewPost(video: stored.name, videoURL: link.url, description: "case"),
                    idempotencyKey: "k"), manager: authed)
            #expect(published.video == stored.name)
            let image = folder.appendingPathComponent("me.png")
            try Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]).write(to: image)
            let withAvatar = try await Self.expectConforming(
                UploadEndPoint.profileImage(file: image), manager: authed)
            let avatarURL = try #require(withAvatar.profileImageURL)
            let downloaded = try await plain.sendRaw(URLRequest(url: avatarURL))
            #expect(downloaded.value == Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))
        }
    }

    @Test(
        "documented errors: 401 without a token, 404 for a missing post, 400 for a bad parameter",
        arguments: TestTransport.allCases)
    func documentedErrors(kind: TestTransport) async throws {
        try await withSocialServer { server, _ in
            let plain = NetworkManager(transport: kind.make(), baseURL: server.baseURL)
            _ = try await Self.expectError(OnboardingEndPoint.me, status: 401, manager: plain)
            _ = try await Self.expectError(TweetsEndPoint.upload(caption: "x"), status: 401, manager: plain)
            let missing = try await Self.expectError(
                PostsEndPoint.post(id: "p-999999"), status: 404, manager: plain)
            #expect(missing?.error == "not_found")
            let bad = try await Self.expectError(
                PostsEndPoint.page(pageNumber: 1, size: 0), status: 400, manager: plain)
            #expect(bad?.parameter == "size")
            let badName = try await Self.expectError(
                UploadEndPoint.videoURL(name: ".hidden.mp4"), status: 400, manager: plain)
            #expect(badName?.parameter == "name")
            let wrong = try await Self.expectError(
                OnboardingEndPoint.login(email: "user1@example.com", password: "wrong-password"), status: 401,
                manager: plain)
            #expect(wrong?.error == "unauthorized")
        }
    }
}
