import Courier
import CourierContract
import CourierTesting
import CourierURLSession
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct Article: Codable, Sendable {
    var id: String
    var title: String
}

enum ArticlesAPI: API {
    static func article(id: String) -> Endpoint<Article> {
        endpoint(.get, "/articles/{id}", "One article") { Path("id", id) }
    }

    static var samples: [any EndpointDescribing] { [article(id: "a1")] }
}

// 1. StubTransport: the manager's own requests, answered in memory. No URLSession, no socket.
@Test func aStubTransportAnswersTheManager() async throws {
    let stub = StubTransport()
    stub.on(.get, "/articles/a1", .json(#"{"id": "a1", "title": "Hi"}"#))
    let manager = NetworkManager(transport: stub, baseURL: URL(string: "https://api.example.com")!)
    let article = try await manager.send(ArticlesAPI.article(id: "a1"))
    #expect(article.value.title == "Hi")
}

// 2. CourierURLProtocol: any URLSession in the process, also code that calls URLSession.shared itself.
@Test func aURLProtocolAnswersAnySession() async throws {
    try await withURLProtocolMock { mock in
        try mock.addStubs(
            json: Data(
                #"{"request": {"url": "/articles/a1"}, "response": {"jsonBody": {"id": "a1", "title": "Hi"}}}"#
                    .utf8))
        let configuration = URLSessionConfiguration.ephemeral
        mock.install(into: configuration)
        let transport = try URLSessionTransport(sessionConfiguration: configuration)
        let manager = NetworkManager(transport: transport, baseURL: mock.baseURL)
        #expect(try await manager.send(ArticlesAPI.article(id: "a1")).value.title == "Hi")
        await transport.shutdown()
        try mock.verify(#"{"method": "GET", "url": "/articles/a1"}"#)
    }  // a request no stub answered fails here, naming the closest stub
}

// 3. The mock server on a loopback socket: every transport, every client, the admin API. Record a
// cassette against it (or a real server) once; replay it with nothing listening.
@Test func aCassetteRecordsOnceAndReplays() async throws {
    let cassettes = FileManager.default.temporaryDirectory.appendingPathComponent("cassettes-\(UUID())")
    try await withMockServer { server in
        try server.addStubs(
            json: Data(
                #"{"request": {"url": "/articles/a1"}, "response": {"jsonBody": {"id": "a1", "title": "Hi"}}}"#
                    .utf8))
        let transport = URLSessionTransport()
        try await withCassette(
            "article", in: cassettes, mode: .once, recordingThrough: transport, baseURL: server.baseURL
        ) { manager in
            _ = try await manager.send(ArticlesAPI.article(id: "a1"))
        }
        await transport.shutdown()
    }
    try await withCassette(
        "article", in: cassettes, mode: .none, recordingThrough: StubTransport(),
        baseURL: URL(string: "https://api.example.com")!
    ) { manager in
        // From the cassette: the StubTransport, which has no stubs, is never asked.
        let article = try await manager.send(ArticlesAPI.article(id: "a1"))
        #expect(article.value.title == "Hi")
    }
}
