import Courier
import CourierTesting
import Foundation
import MockServer
import TestSupport
import Testing

@testable import CourierCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// CurlTransport reuses easy handles. A reused handle must carry nothing of the request
/// before it: not its method, body, headers or redirect setting.
@Suite struct EasyHandleReuseTests {
    /// Answers with what arrived: method, body length and the `X-Once` header.
    private static let echo = ClosureHandler { request in
        if request.path == "/hop" {
            var response = ServerResponse.text("redirect", status: 302)
            response.headers.add(name: "Location", value: "/landed")
            return response
        }
        let once = request.headers["X-Once"] ?? "-"
        return ServerResponse.text(
            "\(request.method) \(request.path) body=\(request.body.count) once=\(once)", status: 200)
    }

    private func request(
        _ server: MockServer, _ method: String, _ path: String, body: Data? = nil, header: String? = nil
    ) throws -> TransportRequest {
        var urlRequest = URLRequest(url: try #require(URL(string: server.baseURL.absoluteString + path)))
        urlRequest.httpMethod = method
        if let header { urlRequest.setValue(header, forHTTPHeaderField: "X-Once") }
        return TransportRequest(urlRequest: urlRequest, body: body.map { .data($0) } ?? .empty)
    }

    /// "hello", gzipped.
    private static let gzippedHello: [UInt8] = [
        31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 203, 72, 205, 201, 201, 7, 0, 134, 166, 16, 54, 5, 0, 0, 0,
    ]

    /// Answers `/ae` with the `Accept-Encoding` fields that arrived, joined by "|"; anything else
    /// with a gzipped "hello" labelled gzip, or an unknown coding for `/unknown`.
    private static let coded = ClosureHandler { request in
        if request.path == "/ae" {
            let fields = request.headers.values(for: "Accept-Encoding").joined(separator: "|")
            return ServerResponse.text(fields, status: 200)
        }
        var response = ServerResponse(status: 200, body: .data(Data(gzippedHello)))
        response.headers.add(
            name: "Content-Encoding", value: request.path == "/unknown" ? "x-unknown" : "gzip")
        return response
    }

    @Test func everyCodingLibcurlDecodesIsOfferedOnceAndARequestsOwnFieldWins() async throws {
        try await withMockServer(handlers: [Self.coded]) { server in
            try await CurlTransport.with { transport in
                let offered = try await transport.send(try request(server, "GET", "/ae"))
                #expect(String(decoding: offered.body.data, as: UTF8.self) == ContentDecoding.offered)
                #expect(ContentDecoding.offered.hasPrefix("deflate, gzip"))
                var own = try request(server, "GET", "/ae")
                own.headers.add(name: "Accept-Encoding", value: "identity")
                let answer = try await transport.send(own)
                #expect(String(decoding: answer.body.data, as: UTF8.self) == "identity")
                // A header of its own on the reused handle, and none on the next request again.
                var other = try request(server, "GET", "/ae", header: "yes")
                other.headers.add(name: "X-Other", value: "1")
                #expect(
                    String(decoding: try await transport.send(other).body.data, as: UTF8.self)
                        == ContentDecoding.offered)
                let again = try await transport.send(try request(server, "GET", "/ae"))
                #expect(String(decoding: again.body.data, as: UTF8.self) == ContentDecoding.offered)
                #expect(transport.loop.handles.idleCount == 1)
            }
        }
    }

    @Test func aHandleThatPassedAnUnknownCodingThroughDecodesTheNextBody() async throws {
        try await withMockServer(handlers: [Self.coded]) { server in
            try await CurlTransport.with { transport in
                // First a connection: a handle whose transfer opened one is reset, which would hide
                // what a transfer leaves on a handle.
                let first = try await transport.send(try request(server, "GET", "/gzip"))
                #expect(first.body.data == Data("hello".utf8))
                let raw = try await transport.send(try request(server, "GET", "/unknown"))
                #expect(raw.body.data == Data(Self.gzippedHello), "an unknown coding comes as it is")
                let decoded = try await transport.send(try request(server, "GET", "/gzip"))
                #expect(decoded.body.data == Data("hello".utf8), "the reused handle decodes again")
                #expect(transport.loop.handles.idleCount == 1)
            }
        }
    }

    @Test func aReusedHandleCarriesNothingOverFromTheRequestBefore() async throws {
        try await withMockServer(handlers: [Self.echo]) { server in
            try await CurlTransport.with { transport in
                let put = try await transport.send(
                    try request(server, "PUT", "/a", body: Data(repeating: 7, count: 5000), header: "yes"))
                #expect(String(decoding: put.body.data, as: UTF8.self) == "PUT /a body=5000 once=yes")

                let get = try await transport.send(try request(server, "GET", "/b"))
                #expect(String(decoding: get.body.data, as: UTF8.self) == "GET /b body=0 once=-")

                let head = try await transport.send(try request(server, "HEAD", "/c"))
                #expect(head.status == 200)
                #expect(head.body.data.isEmpty)

                let post = try await transport.send(try request(server, "POST", "/d", body: Data("xy".utf8)))
                #expect(String(decoding: post.body.data, as: UTF8.self) == "POST /d body=2 once=-")

                let delete = try await transport.send(try request(server, "DELETE", "/e"))
                #expect(String(decoding: delete.body.data, as: UTF8.self) == "DELETE /e body=0 once=-")

                var noFollow = try request(server, "GET", "/hop")
                noFollow.options.maxRedirects = 0
                #expect(try await transport.send(noFollow).status == 302)
                let followed = try await transport.sendThroughManager(try request(server, "GET", "/hop"))
                #expect(String(decoding: followed.body.data, as: UTF8.self) == "GET /landed body=0 once=-")

                // One request at a time needs one handle, so the pool holds exactly one.
                #expect(transport.loop.handles.idleCount == 1)
                #expect(
                    transport.statistics.transfersCompleted == 8, "the followed redirect is two transfers")
            }
        }
    }

    /// A pooled handle keeps the transport's constant options and gets back libcurl's default
    /// for each option a request set: after each kind of request below, a plain GET on the same
    /// handle is a GET with no body, no header of the one before, and a whole in-memory body.
    @Test func eachRequestOptionIsPutBackBeforeTheNextRequest() async throws {
        try await withMockServer(handlers: [Self.echo]) { server in
            try await CurlTransport.with { transport in
                var chunked = try request(server, "POST", "/chunked", header: "chunked")
                chunked.body = .stream(
                    BodyStream(length: nil) { PieceReader(Data(repeating: 1, count: 100_000), piece: 8192) })
                var patch = try request(server, "PATCH", "/patch", body: Data(repeating: 2, count: 70_000))
                patch.headers.add(name: "Idempotency-Key", value: "k")  // one that needs no fresh connection
                var streamed = try request(server, "GET", "/file", header: "file")
                streamed.options.delivery = .streamed
                let firsts: [(TransportRequest, String)] = [
                    (try request(server, "HEAD", "/head", header: "head"), ""),
                    (chunked, "POST /chunked body=100000 once=chunked"),
                    (patch, "PATCH /patch body=70000 once=-"),
                    (
                        try request(server, "OPTIONS", "/options", header: "options"),
                        "OPTIONS /options body=0 once=options"
                    ),
                    (
                        try request(server, "POST", "/fresh", body: Data("z".utf8)),
                        "POST /fresh body=1 once=-"
                    ),
                    (streamed, "GET /file body=0 once=file"),
                ]
                for (index, (first, expected)) in firsts.enumerated() {
                    let answer = try await transport.send(first)
                    #expect(answer.status == 200, "\(first.method.rawValue) \(first.url.path)")
                    var body = answer.body.data
                    if case .stream(let stream) = answer.body {
                        body = try await stream.collect(upTo: 1 << 20)
                    }
                    if !expected.isEmpty {
                        #expect(String(decoding: body, as: UTF8.self) == expected)
                    }
                    var get = try request(server, "GET", "/after-\(index)")
                    get.options.maxResponseBytes = 100
                    let after = try await transport.send(get)
                    #expect(
                        String(decoding: after.body.data, as: UTF8.self)
                            == "GET /after-\(index) body=0 once=-",
                        "after \(first.method.rawValue) \(first.url.path)")
                }
                #expect(transport.loop.handles.idleCount == 1, "one request at a time needs one handle")
            }
        }
    }

    /// libcurl re-sends a request on a fresh connection when a reused one dies before any answer,
    /// and counts that against the easy handle for its whole life: the sixth time, it gives up
    /// ("Connection died, tried 5 times"). A pooled handle must not carry that count over.
    @Test func requestsResentAfterAConnectionDiedDoNotAddUpOnAPooledHandle() async throws {
        // Each connection answers its first request and drops its second without an answer: each
        // request after the first goes out on the connection kept from the one before, which then
        // dies, and libcurl sends it again on a new connection. Numbered per connection, with a
        // long read timeout, so that a slow machine cannot make a fresh connection drop a request.
        let server = try RawHTTPServer(numbering: .perConnection, readTimeout: 600) { index in
            index == 0 ? Data("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8) : Data()
        }
        defer { server.stop() }
        try await CurlTransport.with { transport in
            for attempt in 0..<10 {
                let response = try await transport.send(
                    TransportRequest(url: server.baseURL.appendingPathComponent("r\(attempt)")))
                #expect(String(decoding: response.body.data, as: UTF8.self) == "ok", "request \(attempt)")
            }
            #expect(server.requestCount == 19, "each request after the first was sent twice")
            #expect(transport.loop.handles.idleCount == 1)
        }
    }

    /// A handle whose transfer failed part way (a cut body, a body over the limit, an idle
    /// timeout, a cancel) must not spoil the requests after it.
    @Test func aFailedTransferLeavesTheTransportWorking() async throws {
        let handler = ClosureHandler { request in
            switch request.path {
            case "/cut":
                return ServerResponse(body: .data(Data(count: 200_000)), fault: .truncatedBody)
            case "/big": return ServerResponse(body: .data(Data(count: 300_000)))
            case "/slow": return ServerResponse(body: .data(Data("late".utf8)), delay: .seconds(3))
            default: return ServerResponse.text("ok \(request.path)", status: 200)
            }
        }
        try await withMockServer(handlers: [handler]) { server in
            try await CurlTransport.with { transport in
                var big = try request(server, "GET", "/big")
                big.options.maxResponseBytes = 1_000
                var slow = try request(server, "GET", "/slow")
                slow.options.idleTimeout = .milliseconds(500)
                let failing = [try request(server, "GET", "/cut"), big, slow]
                for (index, failure) in failing.enumerated() {
                    await #expect(throws: CourierError.self) { try await transport.send(failure) }
                    for attempt in 0..<3 {
                        let path = "/after-\(index)-\(attempt)"
                        let response = try await transport.send(try request(server, "GET", path))
                        #expect(String(decoding: response.body.data, as: UTF8.self) == "ok \(path)")
                    }
                }
            }
        }
    }

    @Test func shutdownFreesPooledHandlesAndLaterRecyclesFreeAtOnce() async throws {
        try await withMockServer(handlers: [Self.echo]) { server in
            let transport = CurlTransport()
            _ = try await transport.send(try request(server, "GET", "/x"))
            #expect(transport.loop.handles.idleCount == 1)
            await transport.shutdown()
            #expect(transport.loop.handles.idleCount == 0)
            await #expect(throws: CourierError.self) {
                try await transport.send(try request(server, "GET", "/y"))
            }
            #expect(transport.loop.handles.idleCount == 0)
        }
    }
}
