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
/// socket transports: how paced events and reconnections are timed, the reconnection limit,
/// and a response that is not an event stream. What the events hold and what a reconnection
/// sends is checked for every transport by the conformance suite's `events.` checks.
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

    /// The conformance check `events.fieldsArriveAsSent` reads these events; this times them.
    @Test(arguments: TransportUnderTest.all)
    func pacedEventsArriveOneByOne(transport: TransportUnderTest) async throws {
        try await withMockServer { server in
            try await transport.with { sut in
                try server.addStubs(json: EventStreamStubs.ticks(at: "/ticks", delayMilliseconds: 150))
                let manager = NetworkManager(transport: sut, baseURL: server.baseURL)
                let started = ContinuousClock.now
                var events: [ServerSentEvent] = []
                var arrivals: [Duration] = []
                for try await event in try manager.events(URLRequest(url: URL(string: "/ticks")!)) {
                    events.append(event)
                    arrivals.append(ContinuousClock.now - started)
                    if events.count > 4 { break }  // a stream that does not end fails, not hangs
                }
                #expect(events == EventStreamStubs.tickEvents)
                // The comment goes out at once, event 1 after 150 ms, event 2 after 300 ms: the last
                // cannot have arrived sooner, however the client is scheduled.
                #expect(arrivals.count == 2 && arrivals[1] >= .milliseconds(280), "paced: \(arrivals)")
            }
        }
    }

    /// The conformance check `events.aDroppedConnectionReconnectsWithTheLastEventID` checks
    /// what the reconnections send; this times them.
    @Test(arguments: TransportUnderTest.all)
    func reconnectionsWaitTheDelayTheServerSet(transport: TransportUnderTest) async throws {
        try await withMockServer { server in
            try await transport.with { sut in
                try server.addStubs(json: EventStreamStubs.droppedFeed(at: "/feed", delayMilliseconds: 20))
                let manager = NetworkManager(transport: sut, baseURL: server.baseURL)
                let started = ContinuousClock.now
                var data: [String] = []
                // A 200 s first delay: only the server's `retry: 100` makes this finish in less,
                // with a bound loose enough for the parallel suite on two cores or a sanitizer build.
                let options = EventStreamOptions(initialRetry: .seconds(200), maxRetry: .seconds(400))
                for try await event in try manager.events(
                    URLRequest(url: URL(string: "/feed")!), options: options)
                {
                    data.append(event.data)
                    if data.count > 6 { break }  // a stream that does not end fails, not hangs
                }
                let elapsed = ContinuousClock.now - started
                #expect(data == EventStreamStubs.feedData)
                #expect(
                    elapsed >= .milliseconds(200), "two reconnections waited retry (100 ms) each: \(elapsed)")
                #expect(
                    elapsed < .seconds(150), "the retry field replaced the 200 s initial delay: \(elapsed)")
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

    /// A line or an event that never ends is not held without bound: the events before it
    /// arrive, then `.responseTooLarge`.
    @Test(arguments: TransportUnderTest.all)
    func anEventThatNeverEndsFailsAtTheLimit(transport: TransportUnderTest) async throws {
        try await withMockServer { server in
            try await transport.with { sut in
                let endless = "data: a\\n\\ndata: " + String(repeating: "x", count: 5_000)
                try await Self.install(
                    """
                    {"request": {"method": "GET", "url": "/endless"},
                     "response": {"status": 200, "headers": {"Content-Type": "text/event-stream"}, "body": "\(endless)"}}
                    """, on: server, with: sut)
                let manager = NetworkManager(transport: sut, baseURL: server.baseURL)
                let options = EventStreamOptions(initialRetry: .milliseconds(10), maxEventBytes: 1_000)
                var received: [String] = []
                let error = await #expect(throws: CourierError.self) {
                    for try await event in try manager.events(
                        URLRequest(url: URL(string: "/endless")!), options: options)
                    {
                        received.append(event.data)
                    }
                }
                #expect(received == ["a"])
                #expect(error?.code == .responseTooLarge)
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
