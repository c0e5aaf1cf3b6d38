import Courier
import CourierContract
import CourierPrimitives
import CourierTesting
import CourierURLSession
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Smoke tests over a real loopback socket. The full conformance suite over every
/// transport lives in TransportConformanceTests.

/// The JSON the echo server answers with.
struct EchoedPost: Codable, Sendable, Equatable {
    var id: String
    var likes: Int
}

@Suite(.blocksItsThread, .serialized)
struct URLSessionTransportTests {
    static func echoServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.target {
            case "/json":
                return LoopbackServer.Reply(
                    headers: [
                        ("Content-Type", "application/json"), ("X-Echo", request.headers["x-test"] ?? ""),
                    ],
                    body: Data(#"{"id":"1","likes":5}"#.utf8))
            case "/echo":
                return LoopbackServer.Reply(
                    headers: [("X-Length", String(request.body.count))], body: request.body)
            case "/unsized":
                return LoopbackServer.Reply(body: Data(count: 300_000), closeDelimited: true)
            case "/big":
                return LoopbackServer.Reply(body: Data(count: 200_000))
            case "/redirect":
                return LoopbackServer.Reply(status: 302, headers: [("Location", "/json")])
            case "/loop":
                return LoopbackServer.Reply(status: 302, headers: [("Location", "/loop")])
            case "/slow":
                return LoopbackServer.Reply(body: Data("late".utf8), delay: 2)
            case "/auth":
                return .text(request.headers["authorization"] ?? "none")
            default:
                return .text("not found", status: 404)
            }
        }
    }

    @Test func roundTripThroughNetworkManager() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let manager = NetworkManager(transport: URLSessionTransport(), baseURL: server.baseURL)
        var request = URLRequest(url: server.baseURL.appendingPathComponent("json"))
        request.setValue("yes", forHTTPHeaderField: "X-Test")
        let response = try await manager.send(request, as: EchoedPost.self)
        #expect(response.value == EchoedPost(id: "1", likes: 5))
        #expect(response.headers["x-echo"] == "yes")
        #expect(response.timings.total != nil)
    }

    @Test func uploadsDataFilesAndStreams() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let transport = URLSessionTransport()
        let url = server.baseURL.appendingPathComponent("echo")
        var head = URLRequest(url: url)
        head.httpMethod = "POST"

        let data = try await transport.send(
            TransportRequest(urlRequest: head, body: .data(Data("hello".utf8))))
        #expect(data.body.data == Data("hello".utf8))

        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("upload.bin")
        let content = Data((0..<300_000).map { UInt8($0 % 251) })
        try content.write(to: file)
        let uploaded = Locked<Int64>(0)
        let fromFile = try await transport.send(
            TransportRequest(
                urlRequest: head, body: .file(file),
                progress: { progress in
                    if progress.direction == .upload {
                        uploaded.withLock { $0 = max($0, progress.completed) }
                    }
                }))
        // One Bool each: on a mismatch Swift Testing would diff the two buffers, which takes minutes.
        #expect(
            Bool(fromFile.body.data == content),
            "\(fromFile.body.data.count) bytes back of \(content.count) sent")
        #expect(uploaded.withLock { $0 } == Int64(content.count))

        var form = MultipartForm(boundary: "smoke")
        form.appendFile(at: file, name: "f")
        var request = TransportRequest(urlRequest: head)
        try form.encode(into: &request)
        let streamed = try await transport.send(request)
        let expectedLength = request.body.length
        #expect(streamed.headers["X-Length"] == expectedLength.map(String.init))
        #expect(server.requests.last?.headers["content-type"] == "multipart/form-data; boundary=smoke")
        let formBytes = try form.makeBodyStream().collect()
        #expect(
            Bool(streamed.body.data == formBytes),
            "\(streamed.body.data.count) bytes back of \(formBytes.count) sent")
    }

    @Test func downloadsToFile() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let target = directory.url.appendingPathComponent("big.bin")
        let response = try await NetworkManager(transport: URLSessionTransport()).download(
            URLRequest(url: server.baseURL.appendingPathComponent("big")), to: target)
        #expect(response.body.file == target)
        #expect(response.body.byteCount == 200_000)
        let written = try Data(contentsOf: target)
        // One Bool: on a mismatch Swift Testing would diff the two buffers, which takes minutes.
        #expect(Bool(written == Data(count: 200_000)), "\(written.count) bytes of 200000")
    }

    @Test func refusesTooLargeBodies() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let error = await #expect(throws: CourierError.self) {
            try await URLSessionTransport().send(
                TransportRequest(
                    urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("big")),
                    options: TransferOptions(maxResponseBytes: 1000)))
        }
        #expect(error?.code == .responseTooLarge)

        // Without a Content-Length the transfer is stopped once the limit is passed.
        let unsized = await #expect(throws: CourierError.self) {
            try await URLSessionTransport().send(
                TransportRequest(
                    urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("unsized")),
                    options: TransferOptions(maxResponseBytes: 1000)))
        }
        #expect(unsized?.code == .responseTooLarge)
        let whole = try await URLSessionTransport().send(
            TransportRequest(urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("unsized"))))
        #expect(whole.body.data.count == 300_000)
    }

    @Test func followsAndLimitsRedirects() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let transport = URLSessionTransport()
        let redirect = URLRequest(url: server.baseURL.appendingPathComponent("redirect"))
        let followed = try await transport.sendThroughManager(TransportRequest(urlRequest: redirect))
        #expect(followed.status == 200)
        #expect(followed.url?.path == "/json")

        let unfollowed = try await transport.sendThroughManager(
            TransportRequest(urlRequest: redirect, options: TransferOptions(maxRedirects: 0)))
        #expect(unfollowed.status == 302)

        let error = await #expect(throws: CourierError.self) {
            try await transport.sendThroughManager(
                TransportRequest(
                    urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("loop")),
                    options: TransferOptions(maxRedirects: 3)))
        }
        #expect(error?.code == .tooManyRedirects)
    }

    @Test func dropsCredentialsWhenRedirectChangesHost() async throws {
        let target = try Self.echoServer()
        defer { target.stop() }
        let origin = try LoopbackServer { _ in
            LoopbackServer.Reply(
                status: 307, headers: [("Location", "http://localhost:\(target.port)/auth")])
        }
        defer { origin.stop() }
        var request = URLRequest(url: origin.baseURL.appendingPathComponent("start"))
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        let response = try await URLSessionTransport().sendThroughManager(
            TransportRequest(urlRequest: request))
        #expect(response.status == 200)
        #expect(String(decoding: response.body.data, as: UTF8.self) == "none")
    }

    @Test func mapsRefusedConnections() async throws {
        let server = try Self.echoServer()
        let url = server.baseURL.appendingPathComponent("json")
        server.stop()
        let error = await #expect(throws: CourierError.self) {
            try await URLSessionTransport().send(TransportRequest(urlRequest: URLRequest(url: url)))
        }
        #expect(error?.code == .cannotConnect)
    }

    @Test func totalTimeoutAndCancellation() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let transport = URLSessionTransport()
        let slow = URLRequest(url: server.baseURL.appendingPathComponent("slow"))
        let error = await #expect(throws: CourierError.self) {
            try await transport.send(
                TransportRequest(urlRequest: slow, options: TransferOptions(totalTimeout: .seconds(0.3))))
        }
        #expect(error?.code == .timedOut)

        let task = Task { try await transport.send(TransportRequest(urlRequest: slow)) }
        try await Task.sleep(nanoseconds: 100_000_000)
        task.cancel()
        let result = await task.result
        #expect(throws: CourierError.self) { try result.get() }
        if case .failure(let failure) = result { #expect((failure as? CourierError)?.code == .cancelled) }
    }

    @Test(arguments: [
        (URLError.Code.cannotFindHost, CourierError.Code.cannotResolveHost),
        (.cannotConnectToHost, .cannotConnect), (.timedOut, .timedOut), (.secureConnectionFailed, .tls),
        (.serverCertificateUntrusted, .tls), (.networkConnectionLost, .connectionLost),
        (.badServerResponse, .connectionLost), (.zeroByteResource, .connectionLost), (.cancelled, .cancelled),
        (.unsupportedURL, .connectionLost), (.badURL, .invalidURL), (.unknown, .connectionLost),
        (.userAuthenticationRequired, .transferFailed),
    ])
    func mapsURLErrors(urlCode: URLError.Code, expected: CourierError.Code) {
        #expect(URLErrorMapping.code(for: urlCode) == expected)
    }

    @Test func classifiesUnknownErrorsByLibcurlText() {
        func mapped(_ message: String, code: Int = -1) -> CourierError.Code {
            let error = NSError(
                domain: NSURLErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: message])
            return URLErrorMapping.courierError(for: error, request: nil).code
        }
        #expect(mapped("SSL certificate problem: self-signed certificate") == .tls)
        #expect(mapped("Could not resolve host: nowhere.invalid") == .cannotResolveHost)
        #expect(mapped("Something else broke") == .connectionLost)
        #expect(mapped("whatever", code: URLError.Code.timedOut.rawValue) == .timedOut)
    }

    @Test func subSecondTimeoutsEndInAnAnswerOrACleanError() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let transport = URLSessionTransport()
        // A quick answer within the deadline, or (on a machine too loaded to answer in 0.75 s) the
        // deadline's own error: either way an answer or a clean error, never a hang or a crash.
        do {
            let fast = try await transport.send(
                TransportRequest(
                    urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("json")),
                    options: TransferOptions(totalTimeout: .seconds(0.75))))
            #expect(fast.status == 200)
        } catch let error as CourierError {
            #expect(error.code == .timedOut, "\(error)")
        }
        // A redirect loop racing a short deadline ends in a clean error, never a crash.
        for _ in 0..<5 {
            let error = await #expect(throws: CourierError.self) {
                try await transport.sendThroughManager(
                    TransportRequest(
                        urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("loop")),
                        options: TransferOptions(totalTimeout: .seconds(0.02), maxRedirects: 10_000)))
            }
            #expect(error?.code == .timedOut || error?.code == .tooManyRedirects)
        }
    }

    @Test func uploadsUseFreshConnections() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        var head = URLRequest(url: server.baseURL.appendingPathComponent("echo"))
        head.httpMethod = "POST"
        _ = try await URLSessionTransport().send(
            TransportRequest(urlRequest: head, body: .data(Data("x".utf8))))
        #expect(server.requests.last?.headers["connection"]?.lowercased() == "close")
    }
}
