import Courier
import CourierContract
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TransportConformance {
    /// Methods, query strings, headers and bodies make it to the server and back unchanged.
    static let roundTripChecks: [Check] =
        ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].map { method in
            Check("roundTrip.method.\(method)", needsSocket: false) { c in
                let body: RequestBody = method == "GET" ? .empty : .data(Data("payload-\(method)".utf8))
                let response = try await c.send(
                    TransportRequest(urlRequest: try c.request("/echo/m", method: method), body: body))
                c.expectEqual(response.status, 200, "status")
                let echo = try JSONDecoder().decode(Echo.self, from: response.body.data)
                c.expectEqual(echo.method, method, "method")
                c.expectEqual(echo.path, "/echo/m", "path")
                c.expectEqual(
                    echo.bodyData, method == "GET" ? Data() : Data("payload-\(method)".utf8), "body")
            }
        } + [
            Check("roundTrip.headGetsTheHeadWithoutABody") { c in
                let response = try await c.send(
                    TransportRequest(urlRequest: try c.request("/bytes/100", method: "HEAD")))
                c.expectEqual(response.status, 200, "status")
                c.expect(response.body.data.isEmpty, "a HEAD response has no body")
                c.expectEqual(response.headers["Content-Length"], "100", "Content-Length")
            },
            Check("roundTrip.queryAndHeaders", needsSocket: false) { c in
                let request = try c.request(
                    "/echo/q?limit=5&name=J%C3%BCrgen%20S&empty=&plus=a%2Bb",
                    headers: ["X-Courier-Test": "value with spaces", "Accept": "application/json"])
                let echo = try await c.echo(TransportRequest(urlRequest: request))
                c.expectEqual(
                    echo.query, [["limit", "5"], ["name", "Jürgen S"], ["empty", ""], ["plus", "a+b"]],
                    "query")
                c.expectEqual(echo.header("x-courier-test"), "value with spaces", "X-Courier-Test")
                c.expectEqual(echo.header("Accept"), "application/json", "Accept")
            },
            Check("roundTrip.responseHeadersAndURL") { c in
                let response = try await c.send(TransportRequest(urlRequest: try c.request("/echo/h")))
                c.expectEqual(response.headers["content-type"], "application/json", "Content-Type")
                c.expectEqual(response.url?.path, "/echo/h", "URL path")
                c.expect(
                    response.httpVersion == nil || response.httpVersion == "HTTP/1.1",
                    "httpVersion is HTTP/1.1 or unknown, got \(response.httpVersion ?? "nil")")
            },
            Check("roundTrip.jsonBody", needsSocket: false) { c in
                let json = Data(#"{"caption":"hello","tags":["a","b"],"n":3}"#.utf8)
                let request = try c.request(
                    "/echo/json", method: "POST", headers: ["Content-Type": "application/json"])
                let echo = try await c.echo(TransportRequest(urlRequest: request, body: .data(json)))
                c.expectEqual(echo.bodyData, json, "body")
                c.expectEqual(echo.header("Content-Type"), "application/json", "Content-Type")
                if c.socket {
                    c.expectEqual(echo.header("Content-Length"), "\(json.count)", "Content-Length")
                }
            },
            Check("roundTrip.formBody", needsSocket: false) { c in
                let form = Data("name=J%C3%BCrgen&tags=a&tags=b&note=1%2B1%3D2".utf8)
                let request = try c.request(
                    "/echo/form", method: "POST",
                    headers: ["Content-Type": "application/x-www-form-urlencoded"])
                let echo = try await c.echo(TransportRequest(urlRequest: request, body: .data(form)))
                c.expectEqual(echo.bodyData, form, "body")
                c.expectEqual(
                    echo.header("Content-Type"), "application/x-www-form-urlencoded", "Content-Type")
            },
            Check("roundTrip.multipartBodyFromDisk", needsSocket: false) { c in
                let directory = try TemporaryDirectory(prefix: "courier-conformance")
                let file = directory.url.appendingPathComponent("clip.bin")
                try Pattern.bytes(offset: 0, count: 300_000).write(to: file)
                var form = MultipartForm(boundary: "courier-conformance-boundary")
                form.append("a caption", name: "caption")
                form.appendFile(at: file, name: "video", contentType: "application/octet-stream")
                let stream = try form.makeBodyStream()
                let expected = try stream.collect()
                let request = try c.request(
                    "/echo/upload", method: "POST", headers: ["Content-Type": form.contentType])
                let echo = try await c.echo(TransportRequest(urlRequest: request, body: .stream(stream)))
                c.expect(echo.bodyData == expected, "the multipart body arrived changed")
            },
            Check("roundTrip.streamOfUnknownLength") { c in
                let payload = Pattern.bytes(offset: 0, count: 200_000)
                let stream = BodyStream(length: nil) { PieceReader(payload, piece: 7_000) }
                let request = try c.request(
                    "/echo/chunked", method: "PUT", headers: ["Content-Type": "application/octet-stream"])
                let echo = try await c.echo(TransportRequest(urlRequest: request, body: .stream(stream)))
                c.expect(echo.bodyData == payload, "the streamed body arrived changed")
                // Chunked coding, or a Content-Length after spooling the stream: both frame it.
                let framed =
                    echo.header("Transfer-Encoding")?.lowercased() == "chunked"
                    || echo.header("Content-Length") == "\(payload.count)"
                c.expect(framed, "the stream was sent neither chunked nor with its length")
            },
            Check("roundTrip.gzipIsDecompressed") { c in
                let response = try await c.send(TransportRequest(urlRequest: try c.request("/gzip")))
                c.expectEqual(response.body.data, ConformanceRoutes.greeting, "decompressed body")
            },
            Check("roundTrip.aBodyInAnUnknownEncodingIsHandedOverAsItCame") { c in
                // Decoded when every coding of the list can be, else handed over as it came, with
                // its header (as browsers do). A transport that cannot hand it over fails with
                // `.transferFailed`, which is not retried.
                let hello = Data("hello".utf8)
                let gzipped = ConformanceRoutes.greetingGzip
                let cases: [(coding: String, gzip: Bool, body: Data, canFail: Bool)] = [
                    ("identity", false, hello, false), ("none", false, hello, false),
                    ("GZip", true, ConformanceRoutes.greeting, false),
                    ("x-gzip", true, ConformanceRoutes.greeting, false),
                    ("utf-8", false, hello, true), ("foo, identity", false, hello, true),
                    ("gzip, foo", true, gzipped, true),
                ]
                for (coding, gzip, body, canFail) in cases {
                    let path = c.path("/encoded", query: ["coding": coding, "gzip": gzip ? "1" : "0"])
                    let request = TransportRequest(urlRequest: try c.request(path))
                    do {
                        let response = try await c.send(request)
                        c.expectEqual(response.body.data, body, "body in Content-Encoding \(coding)")
                        c.expectEqual(response.headers["Content-Encoding"], coding, "Content-Encoding")
                    } catch let error as CourierError where canFail && error.code == .transferFailed {
                        continue
                    }
                }
            },
            Check("roundTrip.aBodyInAnUnknownTransferCodingIsHandedOverAsItCame") { c in
                // RFC 9112 §6.3: chunked last frames the body, else the body runs to the close. A
                // coding that cannot be decoded is left on the body, as it came.
                let cases: [(head: String, body: String)] = [
                    ("Transfer-Encoding: foo\r\nConnection: close", "hello"),
                    ("Transfer-Encoding: foo\r\nContent-Length: 2\r\nConnection: close", "hello"),
                    ("Transfer-Encoding: foo, chunked", "5\r\nhello\r\n0\r\n\r\n"),
                ]
                for (head, body) in cases {
                    let server = try RawReplyServer(
                        reply: Data("HTTP/1.1 200 OK\r\n\(head)\r\n\r\n\(body)".utf8))
                    defer { server.stop() }
                    do {
                        let response = try await c.send(
                            TransportRequest(urlRequest: URLRequest(url: server.url)))
                        c.expectEqual(
                            String(decoding: response.body.data, as: UTF8.self), "hello", "body after \(head)"
                        )
                        c.expect(
                            response.headers["Transfer-Encoding"] != nil,
                            "Transfer-Encoding is gone after \(head)")
                    } catch let error as CourierError where error.code == .transferFailed {
                        continue
                    }
                }
            },
            Check("roundTrip.downloadToAFileWithProgress") { c in
                let directory = try TemporaryDirectory(prefix: "courier-conformance")
                let destination = directory.url.appendingPathComponent("download.bin")
                let size = 3 << 20
                let progress = ProgressRecorder()
                let response = try await c.manager().download(
                    try c.request("/bytes/\(size)"), to: destination, progress: progress.record)
                if case .file(let url, let count) = response.body {
                    c.expect(
                        url == destination && count == Int64(size), "body: \(count) bytes to \(url.path)")
                } else {
                    c.record("the body is not the file: \(response.body)")
                }
                c.expect(
                    (try? Data(contentsOf: destination)) == Pattern.bytes(offset: 0, count: size),
                    "the file holds other bytes")
                let last = progress.reports.last { $0.direction == .download }
                c.expectEqual(last?.completed, Int64(size), "last download progress")
            },
            Check("roundTrip.uploadFromAFileWithProgress") { c in
                let directory = try TemporaryDirectory(prefix: "courier-conformance")
                let file = try Pattern.writeFile(length: 1 << 20, in: directory.url)
                let progress = ProgressRecorder()
                let request = try c.request(
                    "/echo/file", method: "PUT", headers: ["Content-Type": "application/octet-stream"])
                let echo = try await c.echo(
                    TransportRequest(urlRequest: request, body: .file(file), progress: progress.record))
                c.expectEqual(echo.bodyLength, 1 << 20, "bytes received")
                let uploads = progress.reports.filter { $0.direction == .upload }
                c.expectEqual(uploads.last?.completed, 1 << 20, "last upload progress")
                c.expect(
                    zip(uploads, uploads.dropFirst()).allSatisfy { $0.completed <= $1.completed },
                    "upload progress went backwards")
            },
        ]
        + [200, 201, 202, 204, 304, 400, 401, 404, 409, 418, 429, 500, 503].map { status in
            Check("roundTrip.status.\(status)IsReturnedNotThrown", needsSocket: false) { c in
                let response = try await c.send(
                    TransportRequest(urlRequest: try c.request("/status/\(status)")))
                c.expectEqual(response.status, status, "status")
                let expected = status == 204 || status == 304 ? Data() : Data("status \(status)".utf8)
                c.expectEqual(response.body.data, expected, "body")
            }
        }
}

/// Hands out a payload in fixed-size pieces, as a streamed body.
package final class PieceReader: BodyStreamReader {
    private var remaining: Data
    private let piece: Int

    /// A reader of `payload`, `piece` bytes at most per read.
    package init(_ payload: Data, piece: Int) {
        remaining = payload
        self.piece = piece
    }

    package func read(upTo maxLength: Int) throws -> Data {
        let count = min(maxLength, piece, remaining.count)
        defer { remaining.removeFirst(count) }
        return remaining.prefix(count)
    }

    package func close() {}
}

/// Collects progress reports from any thread.
package final class ProgressRecorder: Sendable {
    private let storage = Mutex<[TransferProgress]>([])

    package init() {}

    /// Every report so far, in order.
    package var reports: [TransferProgress] { storage.withLock { $0 } }

    /// The closure to pass as a request's progress.
    package var record: @Sendable (TransferProgress) -> Void {
        { progress in self.storage.withLock { $0.append(progress) } }
    }
}
