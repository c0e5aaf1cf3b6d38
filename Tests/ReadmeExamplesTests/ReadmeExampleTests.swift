import Courier
import CourierPrimitives
import Foundation
import MockServer
import TestSupport
import Testing

/// The README's usage example is ReadmeExample.swift, verbatim: this test compiles and runs it,
/// and fails when the README and the file drift apart.
@Suite("README usage example")
struct ReadmeExampleTests {
    @Test func readmeShowsTheCompiledExampleVerbatim() throws {
        #expect(try ReadmeText.showsVerbatim("ReadmeExample.swift"))
    }

    @Test func exampleRunsAgainstAMockServer() async throws {
        let store = Locked<[Post]>([])
        let api = ClosureHandler { request in
            guard request.path == "/posts" else { return nil }
            switch request.method {
            case "POST":
                guard let body = try? request.bodyData(),
                    let new = try? JSONDecoder().decode(NewPost.self, from: body)
                else { return .text("bad body", status: 400) }
                let post = store.withLock { posts in
                    let post = Post(id: "p\(posts.count + 1)", title: new.title, likes: 0)
                    posts.append(post)
                    return post
                }
                return .json((try? JSONEncoder().encode(post)) ?? Data(), status: 201)
            case "GET":
                // `size` is nil in the example: its default (20) is the server's to apply, so none is sent.
                guard request.queryValue("page") == "1", request.queryValue("size") == nil else {
                    return .text("bad query \(request.target)", status: 400)
                }
                return .json((try? JSONEncoder().encode(store.withLock { $0 })) ?? Data())
            default:
                return .text("method not allowed", status: 405)
            }
        }
        let result = try await withMockServer(handlers: [api]) { server in
            try await createAndList(baseURL: server.baseURL)
        }
        #expect(result.created == Post(id: "p1", title: "Hello", likes: 0))
        #expect(result.page == [result.created])
    }

    @Test func unsafePathSegmentIsRefusedBeforeSending() {
        #expect {
            try PostsAPI.post(id: "../admin").makeRequest(baseURL: URL(string: "https://api.example.com"))
        } throws: { error in
            (error as? CourierError)?.code == .invalidURL
        }
    }

    @Test func theDeclarationGivesTheOperations() {
        #expect(PostsAPI.operations.map(\.id) == ["posts.list", "posts.post", "posts.create"])
        #expect(PostsAPI.operations.map(\.path) == ["/posts", "/posts/{id}", "/posts"])
    }
}
