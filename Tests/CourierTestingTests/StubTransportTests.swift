import Courier
import CourierContract
import CourierTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

struct StubTransportTests {
    @Test func answersFromFixtureFiles() async throws {
        let stub = StubTransport(fixturesDirectory: fixtures.appendingPathComponent("Stubs"))
        stub.on(.get, "/feed", .fixture("feed.json"))
        let response = try await makeManager(stub).send(TestEndpoint.feed, as: TestFeed.self)
        #expect(response.value.posts == [TestPost(id: "f1", likes: 10)])
        #expect(response.headers["Content-Type"] == "application/json")
    }

    /// A HEAD announces the length of the body a GET would get, and carries none.
    @Test func aHeadAnnouncesTheLengthOfTheBody() async throws {
        let stub = StubTransport(fixturesDirectory: fixtures.appendingPathComponent("Stubs"))
        stub.on(.head, "/feed", .fixture("feed.json"))
        let size = try Data(contentsOf: fixtures.appendingPathComponent("Stubs/feed.json")).count
        let response = try await stub.send(
            TransportRequest(method: .head, url: try #require(URL(string: "https://api.test/feed"))))
        #expect(response.headers["Content-Length"] == String(size))
        #expect(response.body.data.isEmpty)
    }

    @Test func missingFixtureIsAClearError() async throws {
        let stub = StubTransport(fixturesDirectory: fixtures)
        stub.on(.get, "/feed", .fixture("nope.json"))
        let error = await #expect(throws: CourierError.self) {
            try await makeManager(stub).sendRaw(TestEndpoint.feed)
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("nope.json") == true)
    }

    @Test func unmatchedRequestsGet404SayingSo() async throws {
        let stub = StubTransport()
        let error = await #expect(throws: CourierError.self) {
            try await makeManager(stub).sendRaw(TestEndpoint.feed)
        }
        #expect(error?.status == 404)
        #expect(error?.bodySnippet == "StubTransport: no stub for GET /feed")
    }

    @Test func wildcardsMatchOneSegmentAndMethodsMatter() async throws {
        let stub = StubTransport()
        stub.on(.get, "/posts/*", .json(#"{"id":"w","likes":0}"#))
        let manager = makeManager(stub)
        #expect(try await manager.send(TestEndpoint.post("abc"), as: TestPost.self).value.id == "w")
        await #expect(throws: CourierError.self) {
            try await manager.send(TestEndpoint.delete("abc"), as: EmptyResponse.self)
        }
    }

    @Test func recordsBodiesOfEveryKind() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("body.txt")
        try Data("from file".utf8).write(to: file)
        let stub = StubTransport()
        let head = URLRequest(url: URL(string: "https://api.test/upload")!)
        _ = try await stub.send(TransportRequest(urlRequest: head, body: .data(Data("bytes".utf8))))
        _ = try await stub.send(TransportRequest(urlRequest: head, body: .file(file)))
        _ = try await stub.send(
            TransportRequest(
                urlRequest: head, body: .stream(BodyStream(length: 6) { OneShotReader(Data("stream".utf8)) }))
        )
        #expect(stub.requests.map(\.bodyText) == ["bytes", "from file", "stream"])
        #expect(stub.requests.map(\.bodyLength) == [5, 9, 6])
        stub.clearRequests()
        #expect(stub.requests.isEmpty)
    }

    @Test func enforcesMaxResponseBytes() async throws {
        let stub = StubTransport { _ in .data(Data(count: 2000)) }
        let error = await #expect(throws: CourierError.self) {
            try await stub.send(
                TransportRequest(
                    urlRequest: URLRequest(url: URL(string: "https://api.test/big")!),
                    options: TransferOptions(maxResponseBytes: 1000)))
        }
        #expect(error?.code == .responseTooLarge)
    }

    @Test func delayedAnswersArriveAfterTheDelay() async throws {
        let stub = StubTransport { _ in StubResponse.text("late").delayed(by: .seconds(0.05)) }
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await stub.send(
            TransportRequest(urlRequest: URLRequest(url: URL(string: "https://a.test/")!)))
        #expect(clock.now - start >= .milliseconds(50))
        #expect(response.body.data == Data("late".utf8))
    }

    @Test func jsonEncodingStubs() async throws {
        let stub = StubTransport()
        stub.on(.get, "/posts/*", .json(encoding: TestPost(id: "e", likes: 4), status: 200))
        #expect(try await makeManager(stub).send(TestEndpoint.post("e"), as: TestPost.self).value.likes == 4)
    }
}

struct LargeFilePartTests {
    /// A 1 GiB sparse file: the form computes its length from the file size and streams it
    /// in small chunks, so nothing near 1 GiB is ever in memory.
    @Test func gibibyteFilePartIsNeverLoaded() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("huge.mp4")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()

        var form = MultipartForm(boundary: "big")
        form.appendFile(at: file, name: "video")
        var request = TransportRequest(urlRequest: URLRequest(url: URL(string: "https://api.test/upload")!))
        try form.encode(into: &request)
        guard case .stream(let stream) = request.body else {
            Issue.record("a file part must stream")
            return
        }
        let head =
            "--big\r\nContent-Disposition: form-data; name=\"video\"; filename=\"huge.mp4\"\r\n"
            + "Content-Type: video/mp4\r\n\r\n"
        let tail = "\r\n--big--\r\n"
        #expect(stream.length == Int64(head.utf8.count + tail.utf8.count) + (1 << 30))
        let reader = try stream.makeReader()
        defer { reader.close() }
        #expect(try reader.read(upTo: 64 * 1024) == Data(head.utf8))
        let chunk = try reader.read(upTo: 64 * 1024)
        #expect(chunk.count == 64 * 1024)
        #expect(chunk.allSatisfy { $0 == 0 })
    }
}
