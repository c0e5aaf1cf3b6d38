import Courier
import CourierContract
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct PathComponentTests {
    @Test(arguments: [
        ("42", "42"), ("a b", "a%20b"), ("é", "%C3%A9"), ("a?b#c", "a%3Fb%23c"), ("x:y@z", "x:y@z"),
        ("100%", "100%25"), ("...", "..."),
    ])
    func encodesSegments(raw: String, encoded: String) throws {
        #expect(try PathComponent(raw).encoded == encoded)
        #expect(("/posts/\(raw)" as EndpointPath).text == "/posts/" + encoded)
        // Plain interpolation is the same safe segment; only `raw:` inserts text as it is.
        #expect(("/posts/\(raw)" as EndpointPath).text == "/posts/" + encoded)
    }

    @Test func plainInterpolationCannotAddAQueryOrASegment() {
        let query = "b1?admin=true"
        let deeper = "a/b"
        #expect(("/bookmarks/\(query)" as EndpointPath).text == "/bookmarks/b1%3Fadmin=true")
        #expect(("/bookmarks/\(query)" as EndpointPath).problem == nil)
        #expect(("/bookmarks/\(deeper)" as EndpointPath).problem != nil)
        #expect(("/bookmarks/\("..")" as EndpointPath).problem != nil)
        #expect(("/posts/\(42)/likes" as EndpointPath).text == "/posts/42/likes")
        #expect(("/v1/\(raw: "a/b")?x=1" as EndpointPath).text == "/v1/a/b?x=1")
    }

    @Test(arguments: ["", ".", "..", "a/b", "/", "a\r\nX-Injected: 1", "a\u{0}b", "tab\there"])
    func refusesUnsafeSegments(raw: String) {
        #expect {
            try PathComponent(raw)
        } throws: { ($0 as? CourierError)?.code == .invalidURL }
    }

    struct Endpoint: APIConfigurable {
        let id: String
        var method: HTTPMethod { .get }
        var path: EndpointPath { "/posts/\(id)/comments" }
    }

    @Test(arguments: ["..", "", "a/b", "x\r\ny", "nul\u{0}"])
    func unsafeInterpolatedSegmentFailsRequestBuilding(id: String) {
        let manager = NetworkManager(transport: StubTransport(), baseURL: URL(string: "https://api.test"))
        #expect {
            try manager.makeRequest(Endpoint(id: id))
        } throws: { error in
            let error = error as? CourierError
            return error?.code == .invalidURL && error?.message.contains("segment") == true
        }
    }

    @Test func safeInterpolatedSegmentBuilds() throws {
        let manager = NetworkManager(transport: StubTransport(), baseURL: URL(string: "https://api.test/v1")!)
        let request = try manager.makeRequest(Endpoint(id: "a b"))
        #expect(request.urlRequest.url?.absoluteString == "https://api.test/v1/posts/a%20b/comments")
    }

    @Test func literalDotSegmentsInPathsAreRefused() {
        #expect(throws: CourierError.self) {
            try URL.joining(path: "/posts/../admin", base: URL(string: "https://api.test"))
        }
    }

    /// A base URL's query stays a query, after the path and before the path's own; its fragment
    /// is dropped.
    @Test(arguments: [
        ("https://api.test/v1?api_key=K", "/posts", "https://api.test/v1/posts?api_key=K"),
        ("https://api.test/v1/?api_key=K", "posts?page=2", "https://api.test/v1/posts?api_key=K&page=2"),
        ("https://api.test/v1#top", "/posts", "https://api.test/v1/posts"),
        ("https://api.test/v1?k=1#top", "/posts", "https://api.test/v1/posts?k=1"),
        ("https://api.test/v1/", "/posts", "https://api.test/v1/posts"),
    ])
    func aBaseURLsQueryFollowsThePath(base: String, path: String, expected: String) throws {
        #expect(try URL.joining(path: path, base: URL(string: base)).absoluteString == expected)
    }

    @Test func joinsPaths() throws {
        #expect(try PathComponent.path("users", "ann lee", "posts") == "/users/ann%20lee/posts")
    }
}
