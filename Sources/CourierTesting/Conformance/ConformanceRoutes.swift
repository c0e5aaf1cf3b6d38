import Foundation
import MockServer

/// What the echo route saw, sent back as JSON.
package struct Echo: Codable, Sendable {
    package var method: String
    package var target: String
    package var path: String
    package var query: [[String]]
    package var headers: [[String]]
    /// The body, base64, when it was kept in memory.
    package var body: String?
    package var bodyLength: Int64
    /// The digest (see `ConformanceRoutes.handler(fileDigest:)`) of a body the server spilled to a file.
    package var bodySHA256: String?

    /// The first value of a header, case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first { $0.first?.lowercased() == name.lowercased() }?.last
    }

    package var bodyData: Data? { body.flatMap { Data(base64Encoded: $0) } }
}

/// The routes the conformance suite's mock server answers, as one handler.
///
/// - `/echo…` any method: an `Echo` of the request.
/// - `/status/N`: status N.
/// - `/redirect/N`: a chain of N 302s ending at `/echo`.
/// - `/redirect-to?url=U&status=S&cookie=C&body=B`: one redirect to U, with `Set-Cookie: C` and the
///   body B when given.
/// - `/delay/MS`: 200 after MS milliseconds.
/// - `/gzip`: the gzip fixture with `Content-Encoding: gzip`.
/// - `/encoded?coding=X[&gzip=1]`: "hello" (or the gzip fixture) with `Content-Encoding: X`.
/// - `/bytes/N`: N pattern bytes with a `Content-Length`.
/// - `/chunked/N`: N pattern bytes in chunked coding (no `Content-Length`).
/// - `/dribble/N?ms=T`: N pattern bytes in 8 chunks spread over T milliseconds.
/// - `/truncated/N`: headers for N bytes, half of them, then the connection closes.
/// - `/set-cookie?cookie=C[&cookie=D…]`: 200 with a `Set-Cookie` field for each.
/// - `/cache/fresh/…`: a body with `Cache-Control: max-age=86400`.
/// - `/cache/validated/…`: a body with `ETag: "v1"` that is stale at once (`max-age=0`); 304
///   to `If-None-Match: "v1"`.
/// - `/resumable/N/…?cut=K`: N pattern bytes with `ETag: "pattern-N"`, honouring `Range` and
///   `If-Range`; a request without `Range` is cut after K bytes.
package enum ConformanceRoutes {
    /// The JSON `/gzip` serves compressed.
    package static let greeting = Data(
        #"{"greeting":"hello, compressed world","items":[1,2,3,4,5,6,7,8,9,10]}"#.utf8 + [0x0a])
    /// The body of the `/cache/…` routes.
    package static let cachedBody = Pattern.bytes(offset: 0, count: 50_000)
    /// The `ETag` of `/cache/validated/…`.
    package static let cacheETag = "\"v1\""

    /// The `ETag` of `/resumable/N/…`.
    package static func resumableETag(size: Int64) -> String { "\"pattern-\(size)\"" }

    /// `greeting`, gzip-compressed.
    package static let greetingGzip = Data(
        base64Encoded:
            "H4sIAAAAAAACA6tWSi9KTS3JzEtXslLKSM3JyddRSM7PLShKLS5OTVEozy/KSVHSUcosSc0tVrKKNtQx0jHWMdEx1THTMdex0LHUMTSIreUCAEI974RGAAAA"
    )!

    /// The handler.
    /// - Parameter fileDigest: computes `Echo.bodySHA256` for a body the server spilled to a
    ///   file; nil leaves it out.
    package static func handler(fileDigest: (@Sendable (URL) -> String?)? = nil) -> ClosureHandler {
        ClosureHandler { request in
            let parts = request.path.split(separator: "/").map(String.init)
            guard let first = parts.first else { return nil }
            let argument = parts.count > 1 ? Int64(parts[1]) : nil
            switch first {
            case "echo": return echo(request, fileDigest: fileDigest)
            case "status": return status(Int(argument ?? 200))
            case "redirect":
                let remaining = argument ?? 0
                let next = remaining > 1 ? "/redirect/\(remaining - 1)" : "/echo/final"
                return ServerResponse(status: 302, headers: ["Location": next])
            case "redirect-to":
                let status = request.queryValue("status").flatMap(Int.init) ?? 302
                var headers: ServerHeaders = ["Location": request.queryValue("url") ?? "/echo"]
                if let cookie = request.queryValue("cookie") {
                    headers.add(name: "Set-Cookie", value: cookie)
                }
                guard let text = request.queryValue("body") else {
                    return ServerResponse(status: status, headers: headers)
                }
                headers["Content-Type"] = "text/plain"
                return ServerResponse(status: status, headers: headers, body: .data(Data(text.utf8)))
            case "set-cookie":
                var response = ServerResponse.text("cookie set", status: 200)
                for item in request.query where item.name == "cookie" {
                    response.headers.add(name: "Set-Cookie", value: item.value)
                }
                return response
            case "cache":
                return cached(request, kind: parts.count > 1 ? parts[1] : "")
            case "resumable":
                return resumable(request, size: argument ?? 0)
            case "delay":
                return ServerResponse(
                    status: 200, headers: ["Content-Type": "text/plain"], body: .data(Data("late".utf8)),
                    delay: .milliseconds(argument ?? 1000))
            case "gzip":
                return ServerResponse(
                    status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                    body: .data(greetingGzip))
            case "encoded":
                // A body with the `Content-Encoding` in `coding`: the gzip fixture with `gzip=1`, else
                // "hello" as it is.
                let gzip = request.queryValue("gzip") == "1"
                return ServerResponse(
                    status: 200,
                    headers: [
                        "Content-Type": "text/plain",
                        "Content-Encoding": request.queryValue("coding") ?? "identity",
                    ],
                    body: .data(gzip ? greetingGzip : Data("hello".utf8)))
            case "bytes":
                return ServerResponse(
                    status: 200, headers: ["Content-Type": "application/octet-stream"],
                    body: .generated(length: argument ?? 0) { Pattern.bytes(offset: $0, count: $1) })
            case "chunked":
                return ServerResponse(
                    status: 200, headers: ["Content-Type": "application/octet-stream"],
                    body: .data(Pattern.bytes(offset: 0, count: Int(argument ?? 0))),
                    dribble: ChunkedDribble(numberOfChunks: 4, totalDuration: .milliseconds(40)))
            case "dribble":
                // N bytes in 8 chunks spread over `ms` milliseconds (default 2400): the body keeps
                // moving, with a pause between chunks, for longer than a short idle timeout.
                let total = request.queryValue("ms").flatMap(Int64.init) ?? 2400
                return ServerResponse(
                    status: 200, headers: ["Content-Type": "application/octet-stream"],
                    body: .data(Pattern.bytes(offset: 0, count: Int(argument ?? 8))),
                    dribble: ChunkedDribble(numberOfChunks: 8, totalDuration: .milliseconds(total)))
            case "truncated":
                return ServerResponse(
                    status: 200, headers: ["Content-Type": "application/octet-stream"],
                    body: .data(Pattern.bytes(offset: 0, count: Int(argument ?? 1024))), fault: .truncatedBody
                )
            default:
                return nil
            }
        }
    }

    private static func status(_ code: Int) -> ServerResponse {
        if code == 204 || code == 304 || code < 200 { return ServerResponse(status: code) }
        return ServerResponse.text("status \(code)", status: code)
    }

    private static func cached(_ request: ServerRequest, kind: String) -> ServerResponse? {
        var headers: ServerHeaders = ["Content-Type": "application/octet-stream"]
        switch kind {
        case "fresh":
            // Fresh for a day: the check's second call may come a minute later on a loaded machine.
            headers["Cache-Control"] = "max-age=86400"
        case "validated":
            headers["Cache-Control"] = "max-age=0"
            headers["ETag"] = cacheETag
            if request.headers["If-None-Match"] == cacheETag {
                return ServerResponse(
                    status: 304, headers: ["ETag": cacheETag, "Cache-Control": "max-age=0"])
            }
        default:
            return nil
        }
        return ServerResponse(headers: headers, body: .data(cachedBody))
    }

    private static func resumable(_ request: ServerRequest, size: Int64) -> ServerResponse {
        // The server answers `Range` and `If-Range` itself, from the ETag.
        var response = ServerResponse(
            headers: ["Content-Type": "application/octet-stream", "ETag": resumableETag(size: size)],
            body: .generated(length: size) { Pattern.bytes(offset: $0, count: $1) })
        if request.headers["Range"] == nil, let cut = request.queryValue("cut").flatMap(Int64.init) {
            response.fault = .truncatedBody
            response.truncateAfter = cut
        }
        return response
    }

    private static func echo(_ request: ServerRequest, fileDigest: (@Sendable (URL) -> String?)?)
        -> ServerResponse
    {
        var echo = Echo(
            method: request.method, target: request.target, path: request.path,
            query: request.query.map { [$0.name, $0.value] },
            headers: request.headers.map { [$0.name, $0.value] },
            body: nil, bodyLength: Int64(request.body.count), bodySHA256: nil)
        if let file = request.bodyFile {
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?
                .int64Value
            echo.bodyLength = size ?? -1
            echo.bodySHA256 = fileDigest?(file)
        } else {
            echo.body = request.body.base64EncodedString()
        }
        guard let data = try? JSONEncoder().encode(echo) else {
            return ServerResponse.text("encoding", status: 500)
        }
        var response = ServerResponse.json(data)
        // The same facts as headers, so that a HEAD request (no body comes back) is seen too.
        response.headers.add(name: "X-Echo-Method", value: echo.method)
        response.headers.add(name: "X-Echo-Body-Length", value: String(echo.bodyLength))
        response.headers.add(name: "X-Echo-Body-Digest", value: Pattern.fnv1a(request.body))
        let names = request.headers.map { $0.name.lowercased() }
        response.headers.add(name: "X-Echo-Header-Names", value: names.joined(separator: ","))
        return response
    }
}

/// Runs `body` with a mock server on a free port that answers the conformance suite's
/// routes (`/echo`, `/status/N`, `/redirect/N`, `/delay/MS`, `/bytes/N` and the rest), and
/// stops it on every exit path.
///
/// - Parameters:
///   - host: the address to bind.
///   - fileDigest: computes the digest the echo route reports for a large body it spilled to
///     a file; nil reports none.
///   - writeTimeout: how long the server waits on a client that reads nothing before it closes
///     the connection (a paused stream is such a client).
///   - body: the work to do with the server.
/// - Returns: what `body` returns.
/// - Throws: what starting the server or `body` throws.
public func withConformanceServer<T: Sendable>(
    host: String = "127.0.0.1", fileDigest: (@Sendable (URL) -> String?)? = nil,
    writeTimeout: Duration = .seconds(30), _ body: (MockServer) async throws -> T
) async throws -> T {
    var configuration = MockServerConfiguration(host: host, maxBodyBytes: 512 << 20)
    configuration.writeTimeout = writeTimeout
    return try await withMockServer(
        configuration: configuration, handlers: [ConformanceRoutes.handler(fileDigest: fileDigest)], body)
}
