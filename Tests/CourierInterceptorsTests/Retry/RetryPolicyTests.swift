import Courier
import CourierContract
import CourierInterceptors
import CourierPrimitives
import CourierTesting
import CourierTransportKit
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Records the delays a policy asked for, without waiting.
final class SleepRecorder: Sendable {
    private let delays = Locked<[TimeInterval]>([])
    var recorded: [TimeInterval] { delays.withLock { $0 } }
    var sleep: @Sendable (TimeInterval) async throws -> Void {
        { seconds in self.delays.withLock { $0.append(seconds) } }
    }
}

func instantPolicy(
    maxAttempts: Int = 3, random: Double = 0.5, recorder: SleepRecorder,
    now: Date = Date(timeIntervalSince1970: 1_000_000)
) -> RetryPolicy {
    RetryPolicy(
        maxAttempts: maxAttempts, baseDelay: .seconds(1), maxDelay: .seconds(10), random: { random },
        sleep: recorder.sleep,
        now: { now })
}

/// A streaming transport whose first answer is a 503 with a body nobody reads; it notes whether that
/// body was cancelled by the time the retry asked again.
final class RetriedStreamTransport: Transport {
    let firstBodyCancelled = Locked(false)
    let cancelledWhenRetried = Locked<Bool?>(nil)
    let calls = Locked(0)

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let call = calls.withLock { calls in
            calls += 1
            return calls
        }
        if call == 1 {
            let (body, producer) = ResponseStream.makeStream(
                bufferingUpTo: 16, onResume: {},
                onCancel: { [firstBodyCancelled] in
                    firstBodyCancelled.withLock { $0 = true }
                })
            _ = producer.yield(Data(repeating: 0x65, count: 64))  // more than the buffer: a paused transfer
            return TransportResponse(status: 503, body: .stream(body))
        }
        cancelledWhenRetried.withLock { $0 = firstBodyCancelled.withLock { $0 } }
        return TransportResponse(status: 200, body: .stream(ResponseStream(chunks: [Data("ok".utf8)])))
    }
}

struct RetryPolicyTests {
    /// A paused transfer keeps its connection: with the origin's connections all held by earlier
    /// attempts, a retry that went out before cancelling them waited for a connection for good.
    @Test func aRetriedStreamCancelsTheEarlierBodyBeforeAskingAgain() async throws {
        let transport = RetriedStreamTransport()
        let recorder = SleepRecorder()
        let manager = NetworkManager(
            transport: transport, baseURL: URL(string: "http://api.test"),
            interceptors: [instantPolicy(maxAttempts: 2, recorder: recorder)])
        let response = try await manager.stream(URLRequest(url: try #require(URL(string: "/feed"))))
        #expect(response.status == 200)
        #expect(try await response.value.collect(upTo: 100) == Data("ok".utf8))
        #expect(transport.calls.withLock { $0 } == 2)
        #expect(transport.cancelledWhenRetried.withLock { $0 } == true)
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func retriesTransientStatusesUpToMaxAttempts(status: Int) async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", .status(status))
        let recorder = SleepRecorder()
        let manager = makeManager(stub, interceptors: [instantPolicy(maxAttempts: 4, recorder: recorder)])
        let error = await #expect(throws: CourierError.self) { try await manager.sendRaw(TestEndpoint.feed) }
        #expect(error?.status == status)
        #expect(stub.requests.count == 4)
        #expect(recorder.recorded == [0.5, 1, 2])
    }

    @Test func succeedsAfterTransientFailures() async throws {
        let stub = StubTransport()
        stub.on(
            .get, "/feed",
            sequence: [.failure(.connectionLost), .status(503), .json(#"{"posts":[]}"#)])
        let recorder = SleepRecorder()
        let response = try await makeManager(stub, interceptors: [instantPolicy(recorder: recorder)])
            .send(TestEndpoint.feed, as: TestFeed.self)
        #expect(response.attempts == 3)
        #expect(recorder.recorded.count == 2)
    }

    @Test(arguments: [400, 401, 403, 404, 501])
    func doesNotRetryOtherStatuses(status: Int) async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", .status(status))
        let manager = makeManager(stub, interceptors: [instantPolicy(recorder: SleepRecorder())])
        _ = try? await manager.sendRaw(TestEndpoint.feed)
        #expect(stub.requests.count == 1)
    }

    @Test(arguments: [CourierError.Code.cancelled, .tls, .responseTooLarge, .invalidBody])
    func doesNotRetryOtherFailures(code: CourierError.Code) async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", .failure(code))
        let manager = makeManager(stub, interceptors: [instantPolicy(recorder: SleepRecorder())])
        let error = await #expect(throws: CourierError.self) { try await manager.sendRaw(TestEndpoint.feed) }
        #expect(error?.code == code)
        #expect(stub.requests.count == 1)
    }

    @Test(arguments: [CourierError.Code.cannotConnect, .timedOut, .connectionLost, .cannotResolveHost])
    func retriesConnectivityFailures(code: CourierError.Code) async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", .failure(code))
        let manager = makeManager(stub, interceptors: [instantPolicy(recorder: SleepRecorder())])
        let error = await #expect(throws: CourierError.self) { try await manager.sendRaw(TestEndpoint.feed) }
        #expect(error?.code == code)
        #expect(stub.requests.count == 3)
    }

    @Test func postIsNotRetried() async throws {
        let stub = StubTransport()
        stub.on(.post, "/posts", .status(503))
        let manager = makeManager(stub, interceptors: [instantPolicy(recorder: SleepRecorder())])
        _ = try? await manager.sendRaw(TestEndpoint.create(TestPost(id: "1", likes: 0)))
        #expect(stub.requests.count == 1)
    }

    struct KeyedCreate: APIConfigurable {
        var method: HTTPMethod { .post }
        var path: EndpointPath { "/posts" }
        var headers: HTTPHeaders { ["Idempotency-Key": "abc"] }
        var parameters: any ParameterConvertible { JSONBody(TestPost(id: "1", likes: 0)) }
    }

    @Test func postWithIdempotencyKeyIsRetried() async throws {
        let stub = StubTransport()
        stub.on(.post, "/posts", .status(503))
        let manager = makeManager(stub, interceptors: [instantPolicy(recorder: SleepRecorder())])
        _ = try? await manager.sendRaw(KeyedCreate())
        #expect(stub.requests.count == 3)
        #expect(stub.requests.allSatisfy { $0.bodyText == #"{"id":"1","likes":0}"# })
    }

    struct StreamedPut: APIConfigurable {
        struct Once: ParameterConvertible {
            func encode(into request: inout TransportRequest) throws {
                request.body = .stream(
                    BodyStream(length: 3, isReplayable: false) { OneShotReader(Data("abc".utf8)) })
            }
        }
        var method: HTTPMethod { .put }
        var path: EndpointPath { "/feed" }
        var parameters: any ParameterConvertible { Once() }
    }

    @Test func nonReplayableBodyIsNotRetried() async throws {
        let stub = StubTransport()
        stub.on(.put, "/feed", .status(503))
        let manager = makeManager(stub, interceptors: [instantPolicy(recorder: SleepRecorder())])
        _ = try? await manager.sendRaw(StreamedPut())
        #expect(stub.requests.count == 1)
        #expect(stub.requests.first?.bodyText == "abc")
    }

    @Test func honoursRetryAfterSeconds() async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", sequence: [.status(429, headers: ["Retry-After": "7"]), .status(200)])
        let recorder = SleepRecorder()
        _ = try await makeManager(stub, interceptors: [instantPolicy(recorder: recorder)]).sendRaw(
            TestEndpoint.feed)
        #expect(recorder.recorded == [7])
    }

    @Test func honoursRetryAfterDateAndCapsIt() async throws {
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        let stub = StubTransport()
        stub.on(
            .get, "/feed",
            sequence: [
                .status(503, headers: ["Retry-After": "Wed, 21 Oct 2015 07:28:04 GMT"]),
                .status(503, headers: ["Retry-After": "3600"]), .status(200),
            ])
        let recorder = SleepRecorder()
        _ = try await makeManager(stub, interceptors: [instantPolicy(recorder: recorder, now: now)])
            .sendRaw(TestEndpoint.feed)
        #expect(recorder.recorded == [4, 10])
    }

    @Test(arguments: [0.0, 0.25, 0.999_999])
    func fullJitterStaysInBounds(random: Double) {
        let policy = RetryPolicy(
            maxAttempts: 10, baseDelay: .seconds(0.5), maxDelay: .seconds(6), random: { random })
        for retry in 1...8 {
            let ceiling = min(6, 0.5 * pow(2, Double(retry - 1)))
            let delay = policy.backoff(retry: retry)
            #expect(delay >= 0 && delay <= ceiling)
            #expect(abs(delay - ceiling * random) < 1e-9)
        }
    }

    @Test func systemRandomJitterStaysInBounds() {
        let policy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(4))
        for _ in 0..<200 {
            let delay = policy.backoff(retry: 3)
            #expect(delay >= 0 && delay <= 4)
        }
    }

    @Test func retryEventsAreReported() async throws {
        let attempts = Locked<[Int]>([])
        let monitor = ClosureEventMonitor { event in
            if case .retrying(let attempt, _) = event { attempts.withLock { $0.append(attempt) } }
        }
        let stub = StubTransport()
        stub.on(.get, "/feed", .status(500))
        _ = try? await makeManager(
            stub, interceptors: [instantPolicy(recorder: SleepRecorder())], monitors: [monitor]
        ).sendRaw(TestEndpoint.feed)
        #expect(attempts.withLock { $0 } == [2, 3])
    }

    @Test func cancellationDuringBackoffStops() async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", .status(503))
        let policy = RetryPolicy(
            maxAttempts: 5, baseDelay: .seconds(30), maxDelay: .seconds(30), random: { 1 })
        let manager = makeManager(stub, interceptors: [policy])
        let task = Task { try await manager.sendRaw(TestEndpoint.feed) }
        try await Task.sleep(nanoseconds: 50_000_000)
        task.cancel()
        let result = await task.result
        #expect(throws: CourierError.self) { try result.get() }
        if case .failure(let error) = result { #expect((error as? CourierError)?.code == .cancelled) }
        #expect(stub.requests.count == 1)
    }
}

struct RetryAfterTests {
    static let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT

    @Test(arguments: [
        ("120", 120.0), ("0", 0), (" 5 ", 5), ("Wed, 21 Oct 2015 07:28:30 GMT", 30),
        ("Wednesday, 21-Oct-15 07:29:00 GMT", 60), ("Wed Oct 21 07:28:10 2015", 10),
        ("Tue, 20 Oct 2015 07:28:00 GMT", 0),
    ])
    func parses(value: String, seconds: Double) {
        #expect(RetryAfter.seconds(from: value, now: Self.now) == seconds)
    }

    @Test(arguments: ["", "-1", "soon", "1.5", "Wed, 99 Foo 2015"])
    func rejectsGarbage(value: String) {
        #expect(RetryAfter.seconds(from: value, now: Self.now) == nil)
    }
}
