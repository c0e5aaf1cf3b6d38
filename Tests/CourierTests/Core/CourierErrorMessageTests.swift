import Courier
import CourierTesting
import CourierURLSession
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `CourierError.description` is one line: what failed, the code (and the status when the
/// message does not already give it), then the method and redacted URL, then a redacted body snippet.
struct CourierErrorMessageTests {
    private func request(_ path: String) -> URLRequest {
        URLRequest(url: URL(string: "https://api.test" + path)!)
    }

    @Test func notFoundSaysTheStatusOnce() async throws {
        let stub = StubTransport()
        stub.on(.get, "/posts/9", .json(#"{"error":"no post 9"}"#, status: 404))
        let manager = NetworkManager(transport: stub)
        let error = await #expect(throws: CourierError.self) {
            try await manager.send(request("/posts/9?token=abc&q=1"), as: TestPost.self)
        }
        #expect(
            error?.description
                == #"unacceptable status 404 (unacceptableStatus) — GET https://api.test/posts/9?token=<redacted>&q=1; body: {"error":"no post 9"}"#
        )
    }

    @Test func decodingNamesTheCodingPath() async throws {
        let stub = StubTransport()
        let posts = (0..<4).map { #"{"id":"p\#($0)","likes":\#($0 == 3 ? #""many""# : "1")}"# }
        let body = #"{"posts":["# + posts.joined(separator: ",") + "]}"
        stub.on(.get, "/feed", .json(body))
        let error = await #expect(throws: CourierError.self) {
            try await NetworkManager(transport: stub).send(request("/feed"), as: TestFeed.self)
        }
        let description = try #require(error?.description)
        #expect(
            description.hasPrefix("cannot decode TestFeed at posts[3].likes: expected Int, found a string"),
            "\(description)")
        #expect(
            description.hasSuffix("(decodingFailed, status 200) — GET https://api.test/feed; body: " + body),
            "\(description)")
        #expect(!description.contains("\n"))
    }

    @Test func invalidJSONGivesLineAndColumn() async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", .json("{\n  \"posts\": [\n    {\"id\": \"a\" \"likes\": 1}\n  ]\n}"))
        let error = await #expect(throws: CourierError.self) {
            try await NetworkManager(transport: stub).send(request("/feed"), as: TestFeed.self)
        }
        let description = try #require(error?.description)
        #expect(
            description.hasPrefix("cannot decode TestFeed: malformed JSON at line 3, column 16"),
            "\(description)"
        )
        #expect(
            description.contains("(decodingFailed, status 200) — GET https://api.test/feed; body: {\\n"),
            "\(description)")
        #expect(!description.contains("\n"), "\(description)")
        #expect(!description.contains("The given data was not valid JSON"), "\(description)")
    }

    @Test func urlSessionConnectionRefusalIsOneShortLine() async throws {
        let transport = URLSessionTransport()
        let manager = NetworkManager(transport: transport)
        let error = await #expect(throws: CourierError.self) {
            try await manager.sendRaw(URLRequest(url: URL(string: "http://127.0.0.1:1/x?token=abc")!))
        }
        #expect(error?.code == .cannotConnect)
        #expect(
            error?.description
                == "could not connect to the server (cannotConnect) — GET http://127.0.0.1:1/x?token=<redacted>"
        )
    }
}
