import Courier
import Endpoints
import Foundation
import Testing

@testable import MockServer
@testable import SocialBackend

/// The backend's rules, called directly (no sockets): auth, ownership, validation, paging.
@Suite("Social backend rules")
final class SocialBackendRulesTests {
    let backend: SocialBackend

    init() throws { backend = try SocialBackend(seedCount: 23) }

    deinit { backend.removeStorage() }

    func call(
        _ method: String, _ target: String, token: String? = nil, json: String? = nil,
        headers: [(String, String)] = []
    ) -> (status: Int, body: Data, headers: [(name: String, value: String)]) {
        var fields: [(name: String, value: String)] = [("Host", "127.0.0.1:8080")]
        if let token { fields.append(("Authorization", "Bearer \(token)")) }
        if json != nil { fields.append(("Content-Type", "application/json")) }
        fields += headers.map { (name: $0.0, value: $0.1) }
        let request = ServerRequest(
            method: method, target: target, headers: ServerHeaders(fields), body: Data((json ?? "").utf8))
        guard let response = backend.respond(to: request) else { return (0, Data(), []) }
        var body = Data()
        if case .data(let data) = response.body { body = data }
        return (response.status, body, Array(response.headers))
    }

    func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        try JSONDecoder.courier.decode(T.self, from: data)
    }

    func login(_ number: Int) throws -> AuthSession {
        let result = call(
            "POST", "/auth/login", json: #"{"email":"user\#(number)@example.com","password":"password1"}"#)
        #expect(result.status == 200)
        return try decode(AuthSession.self, result.body)
    }

    @Test("a missing or invalid token is 401, another user's feed is 403")
    func authAndOwnership() throws {
        let ada = try login(1)
        let grace = try login(2)
        #expect(call("GET", "/me").status == 401)
        #expect(call("GET", "/me", token: "nope").status == 401)
        #expect(try decode(User.self, call("GET", "/me", token: ada.token).body).id == ada.user.id)
        #expect(call("GET", "/users/\(grace.user.id)/feed", token: ada.token).status == 403)
        #expect(call("GET", "/users/\(ada.user.id)/feed", token: ada.token).status == 200)
        #expect(call("GET", "/users/u-999999/feed", token: ada.token).status == 404)
        #expect(
            call("POST", "/auth/login", json: #"{"email":"user1@example.com","password":"wrong12"}"#).status
                == 401)
    }

    @Test("a request breaking the contract is a 400 naming the parameter")
    func validation() throws {
        let result = call("GET", "/posts?pageNumber=0")
        #expect(result.status == 400)
        let error = try decode(APIErrorBody.self, result.body)
        #expect(error.parameter == "pageNumber")
        #expect(error.message.contains("must be >= 1"))
        let missing = try decode(APIErrorBody.self, call("GET", "/posts").body)
        #expect(missing.parameter == "pageNumber")
        let signup = call("POST", "/auth/signup", json: #"{"email":"x@y.z","password":"1"}"#)
        #expect(signup.status == 400)
        #expect(try decode(APIErrorBody.self, signup.body).parameter == "body.password")
        let wrongMethod = call("DELETE", "/posts")
        #expect(wrongMethod.status == 405)
        let allow = wrongMethod.headers.first { $0.name == "Allow" }?.value ?? ""
        #expect(
            Set(allow.components(separatedBy: ", ")) == ["GET", "HEAD", "POST"], "HEAD goes wherever GET does"
        )
        #expect(call("GET", "/not-ours").status == 0)
    }

    @Test("keyset, cursor and page paging each return every post once, newest first")
    func paging() throws {
        let ada = try login(1)
        var keyset: [Post] = []
        var key: String?
        repeat {
            let target = "/timeline?limit=4" + (key.map { "&before=\($0)" } ?? "")
            let page = try decode(KeysetPage<Post>.self, call("GET", target).body)
            keyset += page.items
            key = page.nextKey
        } while key != nil
        #expect(keyset.count == 23)
        #expect(Set(keyset.map(\.id)).count == 23)
        #expect(keyset.map(\.createdAt) == keyset.map(\.createdAt).sorted(by: >))

        var feed: [Post] = []
        var cursor: String?
        var first = true
        repeat {
            let target = "/users/\(ada.user.id)/feed?limit=5" + (cursor.map { "&after=\($0)" } ?? "")
            let page = try decode(CursorPage<Post>.self, call("GET", target, token: ada.token).body)
            feed += page.items
            cursor = page.nextCursor
            if first {
                // A post arriving between pages must not shift the next page.
                first = false
                let newer = #"{"video":"seed-002.mp4","videoURL":"http://x/y","description":"between"}"#
                let published = call(
                    "POST", "/posts", token: ada.token, json: newer, headers: [("Idempotency-Key", "b")])
                #expect(published.status == 201)
            }
        } while cursor != nil
        #expect(
            feed.map(\.id) == keyset.map(\.id), "the post published between pages is not in the old pages")

        var pages: [Post] = []
        var number: Int? = 1
        while let current = number {
            let page = try decode(PostsPage.self, call("GET", "/posts?pageNumber=\(current)&size=6").body)
            pages += page.items
            number = page.nextPageNumber
        }
        #expect(pages.map(\.pageNumber) == Array(1...24), "the post published meanwhile comes last")
    }

    @Test("publish needs the stored video and is idempotent by key")
    func publishIdempotent() throws {
        let ada = try login(1)
        let body = #"{"video":"seed-001.mp4","videoURL":"http://x/y","description":"mine"}"#
        let missing = #"{"video":"nope.mp4","videoURL":"http://x/y","description":"mine"}"#
        #expect(call("POST", "/posts", token: ada.token, json: body).status == 400)
        #expect(
            call("POST", "/posts", token: ada.token, json: missing, headers: [("Idempotency-Key", "k0")])
                .status == 404)
        let first = call("POST", "/posts", token: ada.token, json: body, headers: [("Idempotency-Key", "k1")])
        let again = call("POST", "/posts", token: ada.token, json: body, headers: [("Idempotency-Key", "k1")])
        #expect(first.status == 201)
        #expect(again.status == 201)
        #expect(try decode(Post.self, first.body).id == (try decode(Post.self, again.body).id))
        #expect(backend.counts.posts == 24)
        let changed = body.replacingOccurrences(of: "mine", with: "other")
        #expect(
            call("POST", "/posts", token: ada.token, json: changed, headers: [("Idempotency-Key", "k1")])
                .status == 409)
        let latest = try decode(KeysetPage<Post>.self, call("GET", "/timeline?limit=1").body)
        #expect(latest.items.first?.id == (try decode(Post.self, first.body).id))
        #expect(
            latest.items.first?.videoURL?.absoluteString
                == "http://127.0.0.1:8080/storage/videos/seed-001.mp4")
    }

    @Test("likes count once per user")
    func likes() throws {
        let ada = try login(1)
        let start = try decode(Post.self, call("GET", "/posts/p-000006").body).likes
        let first = try decode(Post.self, call("POST", "/posts/p-000006/like", token: ada.token).body)
        let second = try decode(Post.self, call("POST", "/posts/p-000006/like", token: ada.token).body)
        #expect(first.likes == start + 1, "the first like counts")
        #expect(second.likes == start + 1, "a second like by the same user does not")
        let bob = try login(2)
        let other = try decode(Post.self, call("POST", "/posts/p-000006/like", token: bob.token).body)
        #expect(other.likes == start + 2, "another user's like counts")
        #expect(try decode(Post.self, call("GET", "/posts/p-000006").body).likes == start + 2)
        #expect(call("POST", "/posts/p-999999/like", token: ada.token).status == 404)
    }
}
