import Courier
import CourierInterceptors
import CourierPrimitives
import Endpoints
import Foundation
import MockServer
import Testing

/// The video cache downloads URLs that a server handed out through the app's authenticated
/// manager: the bearer token must reach the API's own origin only.
@Suite("VideoCache credentials")
struct VideoCacheAuthTests {
    struct Token: TokenProvider {
        func currentToken() async throws -> String? { "SECRET-TOKEN" }
        func refreshToken() async throws -> String { "SECRET-TOKEN" }
    }

    @Test(
        "a video on another origin is fetched without the token; one on the API's origin with it",
        arguments: TestTransport.allCases)
    func tokenStaysWithTheAPI(transport: TestTransport) async throws {
        let seen = Locked<[String: String]>([:])
        let videos = ClosureHandler { request in
            seen.withLock { $0[request.path] = request.headers["Authorization"] ?? "none" }
            return ServerResponse(headers: ["Content-Type": "video/mp4"], body: .data(Data(count: 64)))
        }
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withMockServer(handlers: [videos]) { cdn in
            try await withMockServer(handlers: [videos]) { api in
                let manager = NetworkManager(
                    transport: transport.make(), baseURL: api.baseURL,
                    interceptors: [AuthInterceptor(provider: Token())])
                let cache = try VideoCache(directory: folder, manager: manager)
                _ = try await cache.video(at: cdn.baseURL.appendingPathComponent("elsewhere.mp4"))
                _ = try await cache.video(at: api.baseURL.appendingPathComponent("own.mp4"))
                await manager.transport.shutdown()
            }
        }
        #expect(seen.withLock { $0["/elsewhere.mp4"] } == "none", "the token went to another origin")
        #expect(seen.withLock { $0["/own.mp4"] } == "Bearer SECRET-TOKEN")
    }
}
