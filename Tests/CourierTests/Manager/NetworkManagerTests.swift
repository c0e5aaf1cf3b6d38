import Courier
import CourierContract
import CourierInterceptors
import CourierJSON
import CourierPrimitives
import CourierTesting
import Dispatch
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct NetworkManagerTests {
    @Test func decodesAndReportsTheExchange() async throws {
        let stub = StubTransport()
        stub.on(.get, "/posts/*", .json(#"{"id":"7","likes":3}"#, headers: ["X-Trace": "t"]))
        let response = try await makeManager(stub).send(TestEndpoint.post("7"), as: TestPost.self)
        #expect(response.value == TestPost(id: "7", likes: 3))
        #expect(response.status == 200)
        #expect(response.headers["x-trace"] == "t")
        #expect(response.attempts == 1)
        #expect(response.request.url.absoluteString == "https://api.test/posts/7")
        #expect(response.request.headers["Accept"] == "application/json")
        #expect(stub.requests.first?.headers["User-Agent"] == "courier-tests")
    }

    @Test func endpointHeadersWinOverDefaults() throws {
        struct WithAccept: APIConfigurable {
            var method: HTTPMethod { .get }
            var path: EndpointPath { "/x" }
            var headers: HTTPHeaders { ["Accept": "text/plain"] }
        }
        let request = try makeManager(StubTransport()).makeRequest(WithAccept())
        #expect(request.urlRequest.value(forHTTPHeaderField: "Accept") == "text/plain")
    }

    @Test func sendsJSONBodies() async throws {
        let stub = StubTransport()
        stub.on(.post, "/posts", .json(#"{"id":"1","likes":0}"#, status: 201))
        _ = try await makeManager(stub).send(
            TestEndpoint.create(TestPost(id: "1", likes: 0)), as: TestPost.self)
        #expect(stub.requests.first?.bodyText == #"{"id":"1","likes":0}"#)
        #expect(stub.requests.first?.headers["Content-Type"] == "application/json")
    }

    @Test func unacceptableStatusCarriesStatusAndBody() async throws {
        let stub = StubTransport()
        stub.on(.get, "/posts/*", .json(#"{"error":"not found"}"#, status: 404))
        let error = await #expect(throws: CourierError.self) {
            try await makeManager(stub).send(TestEndpoint.post("1"), as: TestPost.self)
        }
        #expect(error?.code == .unacceptableStatus)
        #expect(error?.category == .unacceptableStatus)
        #expect(error?.status == 404)
        #expect(error?.bodySnippet == #"{"error":"not found"}"#)
        #expect(error?.request?.url.path == "/posts/1")
    }

    @Test func customAcceptableStatuses() async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", .json(#"{"posts":[]}"#, status: 404))
        let manager = makeManager(stub, validation: Validation(acceptableStatusCodes: [200, 404]))
        let response = try await manager.send(TestEndpoint.feed, as: TestFeed.self)
        #expect(response.status == 404)
    }

    @Test func contentTypeValidation() async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", .text("<html>"))
        let strict = makeManager(stub, validation: Validation(acceptableContentTypes: ["application/json"]))
        let error = await #expect(throws: CourierError.self) { try await strict.sendRaw(TestEndpoint.feed) }
        #expect(error?.code == .unacceptableContentType)
        let loose = makeManager(stub, validation: Validation(acceptableContentTypes: ["text/*"]))
        #expect(try await loose.sendRaw(TestEndpoint.feed).value == Data("<html>".utf8))
    }

    @Test func emptyBodiesForOptionalAndEmptyResponse() async throws {
        let stub = StubTransport()
        stub.on(.delete, "/posts/*", .status(204))
        let manager = makeManager(stub)
        let empty = try await manager.send(TestEndpoint.delete("1"), as: EmptyResponse.self)
        #expect(empty.status == 204)
        #expect(empty.value == EmptyResponse())
        let optional = try await manager.send(TestEndpoint.delete("1"), as: TestPost?.self)
        #expect(optional.value == nil)
        let error = await #expect(throws: CourierError.self) {
            try await manager.send(TestEndpoint.delete("1"), as: TestPost.self)
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.status == 204)
    }

    @Test func decodingErrorHasCodingPathAndSnippet() async throws {
        let stub = StubTransport()
        let body = #"{"posts":[{"id":"a","likes":1},{"id":"b","likes":"many"}]}"#
        stub.on(.get, "/feed", .json(body))
        let error = await #expect(throws: CourierError.self) {
            try await makeManager(stub).send(TestEndpoint.feed, as: TestFeed.self)
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.category == .decoding)
        #expect(error?.codingPath == "posts[1].likes")
        #expect(error?.bodySnippet == body)
        #expect(error?.description.contains("at posts[1].likes") == true)
    }

    @Test func missingKeyPathIncludesTheKey() async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", .json(#"{"posts":[{"id":"a"}]}"#))
        let error = await #expect(throws: CourierError.self) {
            try await makeManager(stub).send(TestEndpoint.feed, as: TestFeed.self)
        }
        #expect(error?.codingPath == "posts[0].likes")
    }

    @Test func rawDataAndStringPassThrough() async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", .text("plain text"))
        let manager = makeManager(stub)
        #expect(try await manager.send(TestEndpoint.feed, as: String.self).value == "plain text")
        #expect(try await manager.send(TestEndpoint.feed, as: Data.self).value == Data("plain text".utf8))
    }

    @Test func invalidRequestCategory() async throws {
        let manager = NetworkManager(transport: StubTransport())
        let error = await #expect(throws: CourierError.self) {
            try await manager.send(TestEndpoint.feed, as: TestFeed.self)
        }
        #expect(error?.category == .invalidRequest)
        #expect(error?.code == .invalidURL)
    }

    @Test(arguments: [
        ("https://api.test:70000/feed", "has no valid host and port"),
        ("https://:8080/feed", "has no valid host and port"),
        ("feed", "is not absolute; give the manager a baseURL"),
    ])
    func urlsWithoutAUsableHostAreRefusedBeforeTheTransport(url: String, problem: String) async throws {
        let stub = StubTransport()
        let manager = NetworkManager(transport: stub)
        let request = try #require(URL(string: url).map { URLRequest(url: $0) })
        let error = await #expect(throws: CourierError.self) { try await manager.sendRaw(request) }
        #expect(error?.code == .invalidURL)
        #expect(error?.message.contains(problem) == true, "\(String(describing: error))")
        #expect(stub.requests.isEmpty)
    }

    @Test(arguments: [CourierError.Code.cannotConnect, .timedOut, .tls, .connectionLost, .cannotResolveHost])
    func transportErrorsCarryTheRequest(code: CourierError.Code) async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", .failure(code))
        let error = await #expect(throws: CourierError.self) {
            try await makeManager(stub).send(TestEndpoint.feed, as: TestFeed.self)
        }
        #expect(error?.code == code)
        #expect(error?.category == .transport)
        #expect(error?.request?.url.path == "/feed")
    }

    @Test func cancellationBecomesCancelled() async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", StubResponse.json("{}").delayed(by: .seconds(30)))
        let manager = makeManager(stub)
        let task = Task { try await manager.send(TestEndpoint.feed, as: EmptyResponse.self) }
        try await Task.sleep(nanoseconds: 50_000_000)
        task.cancel()
        let result = await task.result
        #expect(throws: CourierError.self) { try result.get() }
        if case .failure(let error) = result { #expect((error as? CourierError)?.code == .cancelled) }
    }

    @Test func interceptorsRunOutermostFirst() async throws {
        let order = Locked<[String]>([])
        func tag(_ name: String) -> RequestAdapter {
            RequestAdapter { request in
                order.withLock { $0.append(name) }
                let existing = request.urlRequest.value(forHTTPHeaderField: "X-Chain") ?? ""
                request.headers.replaceOrAdd(name: "X-Chain", value: existing + name)
            }
        }
        let stub = StubTransport()
        stub.on(.get, "/feed", .json(#"{"posts":[]}"#))
        let response = try await makeManager(stub, interceptors: [tag("a"), tag("b")])
            .send(TestEndpoint.feed, as: TestFeed.self)
        #expect(order.withLock { $0 } == ["a", "b"])
        #expect(response.request.headers["X-Chain"] == "ab")
    }

    @Test func foreignInterceptorErrorsAreWrapped() async throws {
        struct Refused: Error {}
        let stub = StubTransport()
        let error = await #expect(throws: CourierError.self) {
            try await makeManager(stub, interceptors: [RequestAdapter { _ in throw Refused() }])
                .sendRaw(TestEndpoint.feed)
        }
        #expect(error?.code == .interceptorFailed)
        #expect(error?.underlying is Refused)
        #expect(stub.requests.isEmpty)
    }

    /// A transport that fails with an error of its own, which is no `CourierError`.
    struct FailingTransport: Transport {
        struct Broken: Error {}
        func send(_ request: TransportRequest) async throws -> TransportResponse { throw Broken() }
    }

    @Test(arguments: [false, true])
    func aTransportsForeignErrorIsATransportError(throughAnInterceptor: Bool) async throws {
        let interceptors: [any Interceptor] = throughAnInterceptor ? [RequestAdapter { _ in }] : []
        let manager = NetworkManager(
            transport: FailingTransport(), baseURL: URL(string: "http://127.0.0.1:9")!,
            interceptors: interceptors)
        let sent = await #expect(throws: CourierError.self) { try await manager.sendRaw(TestEndpoint.feed) }
        #expect(sent?.code == .transferFailed)
        #expect(sent?.code.category == .transport)
        #expect(sent?.underlying is FailingTransport.Broken)
        #expect(sent?.request?.url.path == "/feed")
        let streamed = await #expect(throws: CourierError.self) {
            _ = try await manager.stream(TestEndpoint.feed)
        }
        #expect(streamed?.code == .transferFailed)
        #expect(streamed?.underlying is FailingTransport.Broken)
    }

    @Test func eventsAreReported() async throws {
        let events = Locked<[String]>([])
        let monitor = ClosureEventMonitor { event in
            let name =
                switch event {
                case .requestSent(_, let attempt): "sent\(attempt)"
                case .responseReceived(_, let response): "received\(response.status)"
                case .retrying(let attempt, _): "retry\(attempt)"
                case .failed(let error): "failed:\(error.code)"
                }
            events.withLock { $0.append(name) }
        }
        let stub = StubTransport()
        stub.on(.get, "/feed", .status(500))
        _ = try? await makeManager(stub, monitors: [monitor]).sendRaw(TestEndpoint.feed)
        #expect(events.withLock { $0 } == ["sent1", "received500", "failed:unacceptableStatus"])
    }

    @Test func completionHandlerRunsOnTheGivenQueue() async throws {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "courier.tests.callbacks")
        queue.setSpecific(key: key, value: "callbacks")
        let stub = StubTransport()
        stub.on(.get, "/posts/*", .json(#"{"id":"1","likes":2}"#))
        let manager = makeManager(stub, queue: queue)
        let (likes, label) = await withCheckedContinuation { continuation in
            manager.request(TestEndpoint.post("1"), as: TestPost.self) { result in
                continuation.resume(
                    returning: ((try? result.get())?.value.likes, DispatchQueue.getSpecific(key: key)))
            }
        }
        #expect(likes == 2)
        #expect(label == "callbacks")
    }

    @Test func successFailureCallbacks() async throws {
        let stub = StubTransport()
        stub.on(.get, "/posts/*", .status(500))
        let manager = makeManager(stub)
        let error: CourierError? = await withCheckedContinuation { continuation in
            manager.request(
                TestEndpoint.post("1"), as: TestPost.self,
                success: { _ in continuation.resume(returning: nil) },
                failure: { continuation.resume(returning: $0) })
        }
        #expect(error?.status == 500)
        let post: TestPost? = await withCheckedContinuation { continuation in
            stub.on(.get, "/feed", .json(#"{"posts":[{"id":"9","likes":1}]}"#))
            manager.request(
                TestEndpoint.feed, as: TestFeed.self,
                success: { continuation.resume(returning: $0.posts.first) },
                failure: { _ in continuation.resume(returning: nil) })
        }
        #expect(post?.id == "9")
    }

    @Test func downloadsToAFile() async throws {
        let directory = try TemporaryDirectory()
        let target = directory.url.appendingPathComponent("feed.json")
        let stub = StubTransport()
        stub.on(.get, "/feed", .json(#"{"posts":[]}"#))
        stub.on(.get, "/posts/*", .text("gone", status: 410))
        let manager = makeManager(stub)
        let response = try await manager.download(TestEndpoint.feed, to: target)
        #expect(response.value == target)
        #expect(try Data(contentsOf: target) == Data(#"{"posts":[]}"#.utf8))
        if case .file(_, let count) = response.body {
            #expect(count == 12)
        } else {
            Issue.record("file body")
        }

        let failed = directory.url.appendingPathComponent("post.json")
        let error = await #expect(throws: CourierError.self) {
            try await manager.download(TestEndpoint.post("1"), to: failed)
        }
        #expect(error?.status == 410)
        #expect(error?.bodySnippet == "gone")
        #expect(!FileManager.default.fileExists(atPath: failed.path))
    }
}

/// The manager decodes with `CourierJSONDecoder` unless it is given another decoder.
struct NetworkManagerDecoderTests {
    @Test func networkManagerDecodesWithCourierByDefaultAndFoundationOnRequest() async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", .json(#"{"posts":[{"id":"a","likes":1}]}"#))
        let manager = NetworkManager(transport: stub, baseURL: URL(string: "https://api.test"))
        #expect(manager.decoder is CourierJSONDecoder)
        #expect(
            try await manager.send(TestEndpoint.feed, as: TestFeed.self).value.posts == [
                TestPost(id: "a", likes: 1)
            ])
        let foundation = NetworkManager(
            transport: stub, baseURL: URL(string: "https://api.test"), decoder: JSONDecoder.courier)
        #expect(foundation.decoder is JSONDecoder)
        #expect(
            try await foundation.send(TestEndpoint.feed, as: TestFeed.self).value.posts == [
                TestPost(id: "a", likes: 1)
            ])
    }
}

/// A manager made from another one's settings is the same manager but for what was changed.
struct NetworkManagerSettingsTests {
    @Test func aManagerFromAnothersSettingsKeepsThemAndSharesItsJar() async throws {
        let stub = StubTransport()
        stub.on(.get, "/feed", .json(#"{"posts":[]}"#, headers: ["Set-Cookie": "s=1; Path=/"]))
        let first = makeManager(stub)
        var settings = first.settings
        settings.defaultHeaders.replaceOrAdd(name: "X-Trace", value: "on")
        let second = NetworkManager(transport: stub, settings: settings)
        #expect(second.baseURL == first.baseURL)
        #expect(second.settings.transferOptions.maxRedirects == first.settings.transferOptions.maxRedirects)
        #expect(second.cookieJar === first.cookieJar)
        _ = try await first.sendRaw(TestEndpoint.feed)
        let response = try await second.sendRaw(TestEndpoint.feed)
        #expect(response.request.headers["X-Trace"] == "on")
        #expect(response.request.headers["User-Agent"] == "courier-tests")
        #expect(
            stub.requests.last?.headers["Cookie"] == "s=1", "the second manager sends the first one's cookie")
    }
}
