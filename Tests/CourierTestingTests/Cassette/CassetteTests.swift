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

/// Cassettes: recorded against the mock server over a real transport, replayed with the server gone,
/// secrets redacted before they reach the disk, and the modes' rules on what may be recorded.
@Suite struct CassetteTests {
    static let stubs = """
        {"mappings": [
          {"request": {"method": "GET", "urlPath": "/greetings/ada"},
           "response": {"status": 200, "headers": {"Content-Type": "application/json", "Set-Cookie": "session=c00kie-s3cret"},
                        "jsonBody": {"text": "hello, ada", "token": "t0ken-s3cret"}}},
          {"request": {"method": "POST", "urlPath": "/greetings"},
           "response": {"status": 201, "headers": {"Content-Type": "application/json"}, "jsonBody": {"text": "written"}}}
        ]}
        """

    /// A transport that must not be reached: replay answers without it.
    struct Unreachable: Transport {
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            Issue.record("the network was reached for \(request.url)")
            throw CourierError(.invalidConfiguration, "unreachable")
        }
    }

    /// Records GET /greetings/ada and POST /greetings against a mock server over URLSessionTransport.
    static func record(_ name: String, in directory: URL, mode: Cassette.Mode) async throws {
        try await withMockServer { server in
            try server.addStubs(json: Data(stubs.utf8))
            let transport = URLSessionTransport()
            try await withCassette(
                name, in: directory, mode: mode, recordingThrough: transport, baseURL: server.baseURL
            ) { manager in
                let greeting = try await manager.send(GreetingAPI.greeting(name: "ada"))
                #expect(greeting.value.text == "hello, ada")
                let created = try await manager.send(GreetingAPI.create(Greeting(text: "hi")))
                #expect(created.status == 201)
            }
            await transport.shutdown()
        }
    }

    @Test func recordsAgainstTheServerAndReplaysWithTheServerStopped() async throws {
        let directory = try TemporaryDirectory()
        try await Self.record("greetings", in: directory.url, mode: .once)
        let file = directory.url.appendingPathComponent("greetings/mappings/cassette.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("s3cret"), "a secret reached the disk: \(text)")
        #expect(text.contains("<redacted>"))

        let stopped = try #require(URL(string: "http://127.0.0.1:9"))
        try await withCassette(
            "greetings", in: directory.url, mode: .none, recordingThrough: Unreachable(), baseURL: stopped
        ) { manager in
            let greeting = try await manager.sendRaw(GreetingAPI.greeting(name: "ada"))
            #expect(greeting.status == 200)
            #expect(String(decoding: greeting.value, as: UTF8.self).contains("hello, ada"))
            #expect(greeting.headers["Set-Cookie"] == "<redacted>")
            let created = try await manager.send(GreetingAPI.create(Greeting(text: "hi")))
            #expect(created.status == 201)
            #expect(created.value.text == "written")
        }
    }

    @Test func modeNoneFailsOnARequestItNeverSawNamingTheClosest() async throws {
        let directory = try TemporaryDirectory()
        try await Self.record("greetings", in: directory.url, mode: .once)
        let stopped = try #require(URL(string: "http://127.0.0.1:9"))
        let error = await #expect(throws: CourierError.self) {
            try await withCassette(
                "greetings", in: directory.url, mode: .none, recordingThrough: Unreachable(), baseURL: stopped
            ) { manager in
                _ = try await manager.sendRaw(GreetingAPI.greeting(name: "grace"))
            }
        }
        let description = String(describing: error)
        #expect(description.contains("no recording for GET /greetings/grace"), "\(description)")
        #expect(description.contains("/greetings/ada"), "the closest recording is named: \(description)")
        // A body that differs is a request never seen, too: the body is matched.
        await #expect(throws: CourierError.self) {
            try await withCassette(
                "greetings", in: directory.url, mode: .none, recordingThrough: Unreachable(), baseURL: stopped
            ) { manager in
                _ = try await manager.sendRaw(GreetingAPI.create(Greeting(text: "other")))
            }
        }
    }

    @Test func onceReplaysARecordedCassetteAndRecordsNothingNew() async throws {
        let directory = try TemporaryDirectory()
        try await Self.record("greetings", in: directory.url, mode: .once)
        let stopped = try #require(URL(string: "http://127.0.0.1:9"))
        await #expect(throws: CourierError.self) {
            try await withCassette(
                "greetings", in: directory.url, mode: .once, recordingThrough: Unreachable(), baseURL: stopped
            ) { manager in
                let value5 = try await manager.sendRaw(GreetingAPI.greeting(name: "ada")).status
                #expect(value5 == 200)
                _ = try await manager.sendRaw(GreetingAPI.greeting(name: "grace"))
            }
        }
    }

    @Test func newEpisodesAddsWhatItHasNotSeenAndAllRecordsAgain() async throws {
        let directory = try TemporaryDirectory()
        try await Self.record("greetings", in: directory.url, mode: .once)
        let file = directory.url.appendingPathComponent("greetings/mappings/cassette.json")
        func mappingCount() throws -> Int {
            guard case .array(let mappings)? = try JSONValue.parse(Data(contentsOf: file))["mappings"] else {
                return -1
            }
            return mappings.count
        }
        #expect(try mappingCount() == 2)
        try await withMockServer { server in
            try server.addStubs(
                json: Data(
                    #"{"request": {"urlPath": "/greetings/grace"}, "response": {"jsonBody": {"text": "hello, grace"}}}"#
                        .utf8))
            let transport = URLSessionTransport()
            try await withCassette(
                "greetings", in: directory.url, mode: .newEpisodes, recordingThrough: transport,
                baseURL: server.baseURL
            ) { manager in
                let value1 = try await manager.send(GreetingAPI.greeting(name: "ada")).value.text
                #expect(value1 == "hello, ada")
                let value2 = try await manager.send(GreetingAPI.greeting(name: "grace")).value.text
                #expect(value2 == "hello, grace")
            }
            #expect(try mappingCount() == 3)
            try await withCassette(
                "greetings", in: directory.url, mode: .all, recordingThrough: transport,
                baseURL: server.baseURL
            ) { manager in
                let value3 = try await manager.send(GreetingAPI.greeting(name: "grace")).value.text
                #expect(value3 == "hello, grace")
            }
            #expect(try mappingCount() == 1)
            await transport.shutdown()
        }
    }

    @Test func theCassetteIsServedByTheMockServerAsMappings() async throws {
        let directory = try TemporaryDirectory()
        try await Self.record("greetings", in: directory.url, mode: .once)
        var configuration = MockServerConfiguration()
        configuration.mappingsDirectory = directory.url.appendingPathComponent("greetings")
        try await withMockServer(configuration: configuration) { server in
            let transport = URLSessionTransport()
            let manager = NetworkManager(transport: transport, baseURL: server.baseURL)
            let value4 = try await manager.send(GreetingAPI.greeting(name: "ada")).value.text
            #expect(value4 == "hello, ada")
            await transport.shutdown()
        }
    }
}

/// A cassette recorded and replayed through `CourierURLProtocol`, for code on plain URLSession.
@Suite struct URLProtocolCassetteTests {
    @Test func recordsThroughTheURLProtocolAndReplaysWithTheServerStopped() async throws {
        let directory = try TemporaryDirectory()
        var port = 0
        try await withMockServer { server in
            port = server.port
            try server.addStubs(json: Data(CassetteTests.stubs.utf8))
            let cassette = try Cassette("urlsession", in: directory.url, mode: .once)
            try await withURLProtocolMock(cassette: cassette) { mock in
                try mock.serve(host: "127.0.0.1")
                let (data, response) = try await URLProtocolMockTests.session(mock).data(
                    from: server.baseURL.appendingPathComponent("greetings/ada"))
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                #expect(String(decoding: data, as: UTF8.self).contains("hello, ada"))
            }
        }
        let file = directory.url.appendingPathComponent("urlsession/mappings/cassette.json")
        #expect(!(try String(contentsOf: file, encoding: .utf8)).contains("s3cret"))

        let replay = try Cassette("urlsession", in: directory.url, mode: .none)
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let error = await #expect(throws: URLProtocolMockError.self) {
            try await withURLProtocolMock(cassette: replay) { mock in
                try mock.serve(host: "127.0.0.1")
                let session = URLProtocolMockTests.session(mock)
                let (data, _) = try await session.data(from: base.appendingPathComponent("greetings/ada"))
                #expect(String(decoding: data, as: UTF8.self).contains("hello, ada"))
                do {
                    _ = try await session.data(from: base.appendingPathComponent("greetings/grace"))
                    Issue.record("a request the cassette never saw was answered")
                } catch let failure as URLError {
                    #expect(failure.code == .resourceUnavailable)
                }
            }
        }
        #expect(error?.unmatched.map(\.target) == ["/greetings/grace"])
    }
}
