import Courier
import Foundation
import MockServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Methods, query strings, headers and bodies make it to the server and back unchanged.
@Suite struct RoundTripTests {
    @Test(arguments: TransportUnderTest.allWithStub, ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
    func methodsRoundTrip(transport: TransportUnderTest, method: String) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let body: RequestBody = method == "GET" ? .empty : .data(Data("payload-\(method)".utf8))
                let response = try await sut.send(
                    TransportRequest(urlRequest: try server.request("/echo/m", method: method), body: body))
                #expect(response.status == 200)
                let echo = try response.echo()
                #expect(echo.method == method)
                #expect(echo.path == "/echo/m")
                #expect(echo.bodyData == (method == "GET" ? Data() : Data("payload-\(method)".utf8)))
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func headRequestsGetTheHeadWithoutABody(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let response = try await sut.send(
                    TransportRequest(urlRequest: try server.request("/bytes/100", method: "HEAD")))
                #expect(response.status == 200)
                #expect(response.body.data.isEmpty)
                #expect(response.headers["Content-Length"] == "100")
            }
        }
    }

    @Test(arguments: TransportUnderTest.allWithStub)
    func queryAndHeadersRoundTrip(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = try server.request(
                    "/echo/q?limit=5&name=J%C3%BCrgen%20S&empty=&plus=a%2Bb",
                    headers: [
                        "X-Courier-Test": "value with spaces", "Accept": "application/json",
                        "X-Unicode": "caf\u{e9}",
                    ])
                let echo = try await sut.send(TransportRequest(urlRequest: request)).echo()
                #expect(
                    echo.query == [["limit", "5"], ["name", "Jürgen S"], ["empty", ""], ["plus", "a+b"]])
                #expect(echo.header("x-courier-test") == "value with spaces")
                #expect(echo.header("Accept") == "application/json")
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func responseHeadersAndURLAreReported(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let response = try await sut.send(TransportRequest(urlRequest: try server.request("/echo/h")))
                #expect(response.headers["content-type"] == "application/json")
                #expect(response.url?.path == "/echo/h")
                #expect(response.httpVersion == (transport.reportsHTTPVersion ? "HTTP/1.1" : nil))
            }
        }
    }

    @Test(arguments: TransportUnderTest.allWithStub)
    func jsonBodyRoundTrips(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let json = Data(#"{"caption":"hello","tags":["a","b"],"n":3}"#.utf8)
                let request = try server.request(
                    "/echo/json", method: "POST", headers: ["Content-Type": "application/json"])
                let echo = try await sut.send(TransportRequest(urlRequest: request, body: .data(json))).echo()
                #expect(echo.bodyData == json)
                #expect(echo.header("Content-Type") == "application/json")
                if transport.kind != .stub {
                    #expect(echo.header("Content-Length") == "\(json.count)", "framing is a socket matter")
                }
            }
        }
    }

    @Test(arguments: TransportUnderTest.allWithStub)
    func formBodyRoundTrips(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let form = Data("name=J%C3%BCrgen&tags=a&tags=b&note=1%2B1%3D2".utf8)
                let request = try server.request(
                    "/echo/form", method: "POST",
                    headers: ["Content-Type": "application/x-www-form-urlencoded"])
                let echo = try await sut.send(TransportRequest(urlRequest: request, body: .data(form))).echo()
                #expect(echo.bodyData == form)
                #expect(echo.header("Content-Type") == "application/x-www-form-urlencoded")
            }
        }
    }

    @Test(arguments: TransportUnderTest.allWithStub)
    func multipartBodyStreamsFromDisk(transport: TransportUnderTest) async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("clip.bin")
        try Pattern.bytes(offset: 0, count: 300_000).write(to: file)
        var form = MultipartForm(boundary: "courier-conformance-boundary")
        form.append("a caption", name: "caption")
        form.appendFile(at: file, name: "video", contentType: "application/octet-stream")
        let stream = try form.makeBodyStream()
        let expected = try stream.collect()
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = try server.request(
                    "/echo/upload", method: "POST", headers: ["Content-Type": form.contentType])
                let echo = try await sut.send(TransportRequest(urlRequest: request, body: .stream(stream)))
                    .echo()
                #expect(echo.bodyData == expected)
                #expect(
                    echo.header("Content-Type")
                        == "multipart/form-data; boundary=courier-conformance-boundary")
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aStreamOfUnknownLengthIsSentChunked(transport: TransportUnderTest) async throws {
        let payload = Pattern.bytes(offset: 0, count: 200_000)
        let stream = BodyStream(length: nil) { ChunkedReader(payload, chunk: 7_000) }
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = try server.request(
                    "/echo/chunked", method: "PUT", headers: ["Content-Type": "application/octet-stream"])
                let echo = try await sut.send(TransportRequest(urlRequest: request, body: .stream(stream)))
                    .echo()
                #expect(echo.bodyData == payload)
                switch transport.kind {
                case .curl:
                    #expect(echo.header("Transfer-Encoding")?.lowercased() == "chunked")
                case .stub:
                    Issue.record("framing needs a socket; StubTransport is not in TransportUnderTest.all")
                case .urlsession:
                    // Documented difference: URLSessionTransport spools a stream to a
                    // temporary file on Linux and sends it with a Content-Length.
                    #expect(echo.header("Content-Length") == "\(payload.count)")
                }
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func gzipBodiesAreDecompressed(transport: TransportUnderTest) async throws {
        let expected = try Data(
            contentsOf: ConformanceRoutes.fixtures.appendingPathComponent("greeting.json"))
        try await withConformanceServer { server in
            try await transport.with { sut in
                let response = try await sut.send(TransportRequest(urlRequest: try server.request("/gzip")))
                #expect(response.body.data == expected)
            }
        }
    }

    @Test(
        arguments: TransportUnderTest.allWithStub,
        [200, 201, 202, 204, 304, 400, 401, 404, 409, 418, 429, 500, 503])
    func statusCodesAreReturnedNotThrown(transport: TransportUnderTest, status: Int) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let response = try await sut.send(
                    TransportRequest(urlRequest: try server.request("/status/\(status)")))
                #expect(response.status == status)
                let expectedBody = status == 204 || status == 304 ? Data() : Data("status \(status)".utf8)
                #expect(response.body.data == expectedBody)
            }
        }
    }
}

/// A reader that hands out a payload in fixed-size pieces, for streamed bodies.
final class ChunkedReader: BodyStreamReader {
    private var remaining: Data
    private let chunk: Int

    init(_ payload: Data, chunk: Int) {
        remaining = payload
        self.chunk = chunk
    }

    func read(upTo maxLength: Int) throws -> Data {
        let count = min(maxLength, chunk, remaining.count)
        defer { remaining.removeFirst(count) }
        return remaining.prefix(count)
    }

    func close() {}
}
