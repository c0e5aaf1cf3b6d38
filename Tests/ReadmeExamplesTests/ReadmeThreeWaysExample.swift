import Courier
import CourierTesting
import CourierURLSession
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// 1. StubTransport: the manager's own requests, answered in memory. No URLSession, no socket.
@Test func aStubTransportAnswersTheManager() async throws {
    let stub = StubTransport()
    stub.on(.get, "/posts/p1", .json(#"{"id": "p1", "title": "Hi", "likes": 3}"#))
    let manager = NetworkManager(transport: stub, baseURL: URL(string: "https://api.example.com")!)
    let post = try await manager.send(PostsAPI.post(id: "p1"))
    #expect(post.value.likes == 3)
}

// 2. CourierURLProtocol: any URLSession in the process, also code that calls URLSession.shared itself.
@Test func aURLProtocolAnswersAnySession() async throws {
    try await withURLProtocolMock { mock in
        try mock.addStubs(
            json: Data(
                #"{"request": {"url": "/posts/p1"}, "response": {"jsonBody": {"id": "p1", "title": "Hi", "likes": 3}}}"#
                    .utf8))
        let configuration = URLSessionConfiguration.ephemeral
        mock.install(into: configuration)
        let transport = try URLSessionTransport(sessionConfiguration: configuration)
        let manager = NetworkManager(transport: transport, baseURL: mock.baseURL)
        #expect(try await manager.send(PostsAPI.post(id: "p1")).value.title == "Hi")
        await transport.shutdown()
        try mock.verify(#"{"method": "GET", "url": "/posts/p1"}"#)
    }  // a request no stub answered fails here, naming the closest stub
}

// 3. The mock server on a loopback socket: every transport, every client, the admin API. Record a
// cassette against it (or a real server) once; replay it with nothing listening.
@Test func aCassetteRecordsOnceAndReplays() async throws {
    let cassettes = FileManager.default.temporaryDirectory.appendingPathComponent("cassettes-\(UUID())")
    try await withMockServer { server in
        try server.addStubs(
            json: Data(
                #"{"request": {"url": "/posts/p1"}, "response": {"jsonBody": {"id": "p1", "title": "Hi", "likes": 3}}}"#
                    .utf8))
        let transport = URLSessionTransport()
        try await withCassette(
            "post", in: cassettes, mode: .once, recordingThrough: transport, baseURL: server.baseURL
        ) { manager in
            _ = try await manager.send(PostsAPI.post(id: "p1"))
        }
        await transport.shutdown()
    }
    try await withCassette(
        "post", in: cassettes, mode: .none, recordingThrough: StubTransport(),
        baseURL: URL(string: "https://api.example.com")!
    ) { manager in
        // From the cassette: the StubTransport, which has no stubs, is never asked.
        let post = try await manager.send(PostsAPI.post(id: "p1"))
        #expect(post.value.likes == 3)
    }
}
