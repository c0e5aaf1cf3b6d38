import Courier
import CourierEvents
import CourierTesting
import Foundation
import MockServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `NetworkManager.events` against the mock server's `eventStream` mappings, over both
/// socket transports: paced events, a dropped connection, the reconnection with
/// `Last-Event-ID`, and the 204 that ends the stream.
@Suite struct ServerSentEventsTests {
    /// Installs a mapping through the admin API.
    static func install(_ mapping: String, on server: MockServer, with sut: any Transport) async throws {
        let url = try #require(URL(string: server.baseURL.absoluteString + "/__admin/mappings"))
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let response = try await sut.send(
            TransportRequest(urlRequest: request, body: .data(Data(mapping.utf8))))
        #expect(response.status == 201, "\(String(decoding: response.body.data, as: UTF8.self))")
    }

    /// How many requests the journal holds that match `pattern`.
    static func count(_ pattern: String, on server: MockServer, with sut: any Transport) async throws -> Int {
        let url = try #require(URL(string: server.baseURL.absoluteString + "/__admin/requests/count"))
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        let response = try await sut.send(
            TransportRequest(urlRequest: request, body: .data(Data(pattern.utf8))))
        let object = try JSONSerialization.jsonObject(with: response.body.data) as? [String: Any]
        return try #require(
            object?["count"] as? Int, "\(String(decoding: response.body.data, as: UTF8.self))")
    }

    @Test(arguments: TransportUnderTest.all)
    func pacedEventsArriveOneByOneAndA204Ends(transport: TransportUnderTest) async throws {
        try await withMockServer { server in
            try await transport.with { sut in
                try await Self.install(
                    """
                    {"request": {"method": "GET", "url": "/ticks"},
                     "response": {"status": 200, "eventStream": {"delayMilliseconds": 150, "events": [
                        {"comment": "hello"},
                        {"id": "1", "event": "tick", "data": "one\\ntwo"},
                        {"id": "2", "data": "three", "retry": 50}]}}}
                    """, on: server, with: sut)
                // After the body ends the client reconnects with Last-Event-ID 2: told to stop.
                try await Self.install(
                    """
                    {"priority": 1, "request": {"method": "GET", "url": "/ticks",
                       "headers": {"Last-Event-ID": {"equalTo": "2"}}},
                     "response": {"status": 204}}
                    """, on: server, with: sut)
                let manager = NetworkManager(transport: sut, baseURL: server.baseURL)
                let started = ContinuousClock.now
                var events: [ServerSentEvent] = []
                var arrivals: [Duration] = []
                for try await event in try manager.events(URLRequest(url: URL(string: "/ticks")!)) {
                    events.append(event)
                    arrivals.append(ContinuousClock.now - started)
                    if events.count > 4 { break }  // a stream that does not end fails, not hangs
                }
                #expect(
                    events == [
                        ServerSentEvent(event: "tick", data: "one\ntwo", id: "1"),
                        ServerSentEvent(data: "three", id: "2", retry: .milliseconds(50)),
                    ])
                // The comment goes out at once, event 1 after 150 ms, event 2 after 300 ms: the last
                // cannot have arrived sooner, however the client is scheduled.
                #expect(arrivals.count == 2 && arrivals[1] >= .milliseconds(280), "paced: \(arrivals)")
                let resumed = try await Self.count(
                    #"{"method": "GET", "url": "/ticks", "headers": {"Last-Event-ID": {"equalTo": "2"}}}"#,
                    on: server, with: sut)
                #expect(resumed == 1, "one reconnection carried Last-Event-ID: 2")
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aDroppedConnectionReconnectsWithTheLastEventID(transport: TransportUnderTest) async throws {
        try await withMockServer { server in
            try await transport.with { sut in
                // First connection: two of three events, then the connection drops.
                try await Self.install(
                    """
                    {"request": {"method": "GET", "url": "/feed", "headers": {"Last-Event-ID": {"absent": true}}},
                     "response": {"status": 200, "eventStream": {"delayMilliseconds": 20, "dropAfter": 2, "events": [
                        {"id": "a1", "data": "first", "retry": 100},
                        {"id": "a2", "data": "second"},
                        {"id": "a3", "data": "never sent"}]}}}
                    """, on: server, with: sut)
                try await Self.install(
                    """
                    {"request": {"method": "GET", "url": "/feed", "headers": {"Last-Event-ID": {"equalTo": "a2"}}},
                     "response": {"status": 200, "eventStream": {"events": [{"id": "a3", "data": "third"}]}}}
                    """, on: server, with: sut)
                try await Self.install(
                    """
                    {"request": {"method": "GET", "url": "/feed", "headers": {"Last-Event-ID": {"equalTo": "a3"}}},
                     "response": {"status": 204}}
                    """, on: server, with: sut)
                let manager = NetworkManager(transport: sut, baseURL: server.baseURL)
                let started = ContinuousClock.now
                var data: [String] = []
                // A 60 s first delay: only the server's `retry: 100` makes this finish quickly,
                // with a bound loose enough for a loaded machine or a sanitizer build.
                let options = EventStreamOptions(initialRetry: .seconds(60), maxRetry: .seconds(120))
                for try await event in try manager.events(
                    URLRequest(url: URL(string: "/feed")!), options: options)
                {
                    data.append(event.data)
                    if data.count > 6 { break }  // a stream that does not end fails, not hangs
                }
                let elapsed = ContinuousClock.now - started
                #expect(data == ["first", "second", "third"])
                #expect(
                    elapsed >= .milliseconds(200), "two reconnections waited retry (100 ms) each: \(elapsed)")
                #expect(elapsed < .seconds(30), "the retry field replaced the 60 s initial delay: \(elapsed)")
                for id in ["a2", "a3"] {
                    let count = try await Self.count(
                        #"{"method": "GET", "url": "/feed", "headers": {"Last-Event-ID": {"equalTo": ""# + id
                            + #""}}}"#,
                        on: server, with: sut)
                    #expect(count == 1, "the server saw Last-Event-ID \(id)")
                }
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func reconnectionsWithoutEventsGiveUpAfterTheLimit(transport: TransportUnderTest) async throws {
        try await withMockServer { server in
            try await transport.with { sut in
                try await Self.install(
                    """
                    {"request": {"method": "GET", "url": "/flaky"},
                     "response": {"status": 200, "eventStream": {"dropAfter": 0, "events": []}}}
                    """, on: server, with: sut)
                let manager = NetworkManager(transport: sut, baseURL: server.baseURL)
                let options = EventStreamOptions(initialRetry: .milliseconds(10), maxReconnects: 2)
                let error = await #expect(throws: CourierError.self) {
                    for try await _ in try manager.events(
                        URLRequest(url: URL(string: "/flaky")!), options: options)
                    {}
                }
                #expect(error?.code == .connectionLost)
                let attempts = try await Self.count(
                    #"{"method": "GET", "url": "/flaky"}"#, on: server, with: sut)
                #expect(attempts == 3, "the first connection and two reconnections")
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aResponseThatIsNotAnEventStreamFailsWithoutReconnecting(transport: TransportUnderTest) async throws {
        try await withMockServer { server in
            try await transport.with { sut in
                try await Self.install(
                    """
                    {"request": {"method": "GET", "url": "/plain"},
                     "response": {"status": 200, "headers": {"Content-Type": "text/plain"}, "body": "data: x\\n\\n"}}
                    """, on: server, with: sut)
                let manager = NetworkManager(transport: sut, baseURL: server.baseURL)
                let error = await #expect(throws: CourierError.self) {
                    for try await _ in try manager.events(URLRequest(url: URL(string: "/plain")!)) {}
                }
                #expect(error?.code == .unacceptableContentType)
                let attempts = try await Self.count(
                    #"{"method": "GET", "url": "/plain"}"#, on: server, with: sut)
                #expect(attempts == 1)
            }
        }
    }
}
