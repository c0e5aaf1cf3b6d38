import Courier
import CourierContract
import CourierContractModel
import CourierTesting
import CourierURLSession
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `CourierURLProtocol` answering URLSessions in process from the mock server's engines: WireMock
/// stubs, a declared API's contract handler and an OpenAPI document; each mock a scope of its own.
@Suite struct URLProtocolMockTests {
    static let pong =
        #"{"request": {"method": "GET", "urlPath": "/ping"}, "response": {"status": 200, "body": "pong"}}"#

    /// A session answered by `mock`.
    static func session(_ mock: URLProtocolMock) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        mock.install(into: configuration)
        return URLSession(configuration: configuration)
    }

    @Test func aStubAnswersASessionWithoutASocket() async throws {
        try await withURLProtocolMock { mock in
            try mock.addStubs(json: Data(Self.pong.utf8))
            let (data, response) = try await Self.session(mock).data(
                from: mock.baseURL.appendingPathComponent("ping"))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "pong")
            #expect(try mock.journal().map(\.url) == ["/ping"])
        }
    }

    @Test func uploadBodiesReachTheStubsAndTheJournal() async throws {
        try await withURLProtocolMock { mock in
            try mock.addStubs(
                json: Data(
                    #"{"request": {"method": "POST", "url": "/notes", "bodyPatterns": [{"equalToJson": {"text": "milk"}}]}, "response": {"status": 201}}"#
                        .utf8))
            var request = URLRequest(url: mock.baseURL.appendingPathComponent("notes"))
            request.httpMethod = "POST"
            let session = Self.session(mock)
            let (_, uploaded) = try await session.upload(for: request, from: Data(#"{"text": "milk"}"#.utf8))
            #expect((uploaded as? HTTPURLResponse)?.statusCode == 201)
            request.httpBody = Data(#"{"text": "milk"}"#.utf8)
            let (_, sent) = try await session.data(for: request)
            #expect((sent as? HTTPURLResponse)?.statusCode == 201)
            try mock.verify(#"{"method": "POST", "urlPath": "/notes"}"#, count: 2)
            #expect(try mock.journal().map(\.body) == [#"{"text": "milk"}"#, #"{"text": "milk"}"#])
        }
    }

    @Test func verifyNamesTheNearMisses() async throws {
        try await withURLProtocolMock { mock in
            try mock.addStubs(json: Data(Self.pong.utf8))
            _ = try await Self.session(mock).data(from: mock.baseURL.appendingPathComponent("ping"))
            let error = #expect(throws: URLProtocolMockError.self) {
                try mock.verify(#"{"method": "POST", "url": "/ping"}"#, count: 1)
            }
            #expect(error?.message.contains("received 0") == true)
            #expect(error?.message.contains("near miss: GET /ping") == true)
        }
    }

    @Test func anUnmatchedRequestFailsTheScopeWithItsNearMisses() async throws {
        let error = await #expect(throws: URLProtocolMockError.self) {
            try await withURLProtocolMock { mock in
                try mock.addStubs(json: Data(Self.pong.utf8))
                let (data, response) = try await Self.session(mock).data(
                    from: mock.baseURL.appendingPathComponent("pong"))
                #expect((response as? HTTPURLResponse)?.statusCode == 404)
                #expect(String(decoding: data, as: UTF8.self).contains("Closest stub"))
            }
        }
        #expect(error?.unmatched.map(\.target) == ["/pong"])
        #expect(error?.description.contains("Closest stub") == true)
        #expect(error?.description.contains("/ping") == true)
    }

    @Test func parallelScopesSeeOnlyTheirOwnStubs() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await withURLProtocolMock { mock in
                        try mock.addStubs(
                            json: Data(
                                #"{"request": {"url": "/who"}, "response": {"body": "scope \#(index)"}}"#.utf8
                            ))
                        let session = Self.session(mock)
                        for _ in 0..<5 {
                            let (data, _) = try await session.data(
                                from: mock.baseURL.appendingPathComponent("who"))
                            #expect(String(decoding: data, as: UTF8.self) == "scope \(index)")
                        }
                        #expect(try mock.journal().count == 5)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func aHostServedByOneScopeIsRefusedToAnother() throws {
        let first = try URLProtocolMock()
        defer { first.close() }
        let second = try URLProtocolMock()
        defer { second.close() }
        try first.serve(host: "api.parallel.test")
        let error = #expect(throws: URLProtocolMockError.self) { try second.serve(host: "API.parallel.test") }
        #expect(error?.message.contains("already served") == true)
        first.close()
        try second.serve(host: "api.parallel.test")
    }

    @Test func theScopeHeaderPicksTheMockForAnyHost() async throws {
        try await withURLProtocolMock { mock in
            try mock.addStubs(json: Data(Self.pong.utf8))
            var request = URLRequest(url: try #require(URL(string: "http://unclaimed.example/ping")))
            request.setValue(mock.token, forHTTPHeaderField: CourierURLProtocol.scopeHeader)
            let (data, _) = try await Self.session(mock).data(for: request)
            #expect(String(decoding: data, as: UTF8.self) == "pong")
        }
    }

    @Test func aDeclaredAPIIsServedThroughURLSessionTransport() async throws {
        try await withURLProtocolMock(handlers: [ContractHandler(GreetingAPI.self)]) { mock in
            let configuration = URLSessionConfiguration.ephemeral
            mock.install(into: configuration)
            let transport = try URLSessionTransport(sessionConfiguration: configuration)
            let manager = NetworkManager(transport: transport, baseURL: mock.baseURL)
            let greeting = try await manager.send(GreetingAPI.greeting(name: "ada"))
            #expect(!greeting.value.text.isEmpty)
            let created = try await manager.send(GreetingAPI.create(Greeting(text: "hello")))
            #expect(created.status == 201)
            await transport.shutdown()
            try mock.verify(#"{"method": "POST", "urlPath": "/greetings"}"#)
        }
    }

    @Test func anOpenAPIDocumentIsServed() async throws {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/OpenAPI/petstore-3.0.yaml")
        try await withURLProtocolMock(handlers: [try OpenAPIHandler(contentsOf: document)]) { mock in
            let session = Self.session(mock)
            let (data, response) = try await session.data(from: mock.baseURL.appendingPathComponent("pets"))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(try JSONSerialization.jsonObject(with: data) is [Any])
            let (_, refused) = try await session.data(
                from: mock.baseURL.appendingPathComponent("pets").appending(queryItems: [
                    URLQueryItem(name: "limit", value: "many")
                ]))
            #expect((refused as? HTTPURLResponse)?.statusCode == 400)
        }
    }

    @Test func aDelayedStubWaitsAndAFaultIsALostConnection() async throws {
        try await withURLProtocolMock { mock in
            try mock.addStubs(
                json: Data(
                    #"{"mappings": [{"request": {"url": "/slow"}, "response": {"body": "late", "fixedDelayMilliseconds": 300}}, {"request": {"url": "/broken"}, "response": {"fault": "CONNECTION_RESET_BY_PEER"}}]}"#
                        .utf8))
            let session = Self.session(mock)
            let started = ContinuousClock.now
            let (data, _) = try await session.data(from: mock.baseURL.appendingPathComponent("slow"))
            #expect(String(decoding: data, as: UTF8.self) == "late")
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            let error = await #expect(throws: URLError.self) {
                _ = try await session.data(from: mock.baseURL.appendingPathComponent("broken"))
            }
            #expect(error?.code == .networkConnectionLost)
        }
    }
}

struct Greeting: Codable, Sendable, Equatable, SchemaDescribing {
    var text: String
    static let propertySchemas: [String: Schema] = ["text": .text(1, 100)]
}

enum GreetingAPI: API {
    static func greeting(name: String) -> Endpoint<Greeting> {
        endpoint(.get, "/greetings/{name}", "A greeting") { Path("name", name, .identifier) }
    }

    static func create(_ greeting: Greeting) -> Endpoint<Greeting> {
        endpoint(.post, "/greetings", "Write a greeting", status: 201) { Body(greeting) }
    }

    static var samples: [any EndpointDescribing] { [greeting(name: "ada"), create(Greeting(text: "hi"))] }
}
