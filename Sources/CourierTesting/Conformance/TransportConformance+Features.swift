import Courier
import CourierCache
import CourierCookies
import CourierEvents
import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TransportConformance {
    /// The client's features that rest on the transport: streamed bodies, server-sent events,
    /// cookies, the HTTP cache and resumable downloads, the last four through a
    /// `NetworkManager` on the transport under test.
    static let featureChecks: [Check] =
        streamingChecks + eventChecks + cookieChecks + cacheChecks + resumeChecks

    /// A bound on what an endless-body server sends on one connection: a transport that reads
    /// the whole body before handing it over gets a cut body, not all of memory.
    private static let endlessBodyLimit: Int64 = 256 << 20

    /// A body asked for with `.streamed` delivery: the body as it arrives, with backpressure, cancelled when the
    /// consumer goes away.
    private static let streamingChecks: [Check] = [
        Check("streaming.theBodyArrivesWhole") { c in
            for path in ["/bytes/300000", "/chunked/300000"] {
                let streamed = try await c.transport.stream(TransportRequest(urlRequest: try c.request(path)))
                c.expectEqual(streamed.head.status, 200, "\(path) status")
                c.expectEqual(
                    streamed.head.headers["Content-Type"], "application/octet-stream", "\(path) type")
                var body = Data()
                var chunks = 0
                for try await chunk in streamed.body {
                    c.expect(!chunk.isEmpty, "\(path): an empty chunk")
                    body.append(chunk)
                    chunks += 1
                }
                c.expect(
                    body == Pattern.bytes(offset: 0, count: 300_000), "\(path): the body arrived changed")
                // The server sends this one in four pieces over 40 ms: a stream hands it over as it comes.
                if path.hasPrefix("/chunked") { c.expect(chunks > 1, "\(path) came in one chunk") }
            }
        },
        Check("streaming.aBodyCutMidWayFailsTheIteration") { c in
            let streamed = try await c.transport.stream(
                TransportRequest(urlRequest: try c.request("/truncated/200000")))
            c.expectEqual(streamed.head.status, 200, "status")
            await c.expectError(code: .connectionLost, "a streamed body cut in half") {
                "the end of the body after \(try await streamed.body.collect(upTo: 1 << 20).count) bytes"
            }
        },
        Check("streaming.cancellingTheConsumingTaskStopsTheTransfer") { c in
            // Room enough that a transport that cannot pause does not fail first, nor the server
            // give up, even when a loaded machine starves the consumer for tens of seconds: 1 GiB
            // at about 16 MB/s lasts a minute.
            let server = try EndlessBodyServer(giveUpAfter: 4 * endlessBodyLimit, pause: .milliseconds(4))
            defer { server.stop() }
            var request = TransportRequest(urlRequest: URLRequest(url: server.url))
            request.options.streamBufferBytes = Int(endlessBodyLimit)
            let streamed = try await c.transport.stream(request)
            let received = Locked<Int64>(0)
            let consumer = Task {
                for try await chunk in streamed.body { received.withLock { $0 += Int64(chunk.count) } }
            }
            let deadline = ContinuousClock.now + .seconds(60)
            while received.withLock({ $0 }) < 1 << 20, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            c.expect(received.withLock { $0 } >= 1 << 20, "less than 1 MiB of the body arrived in 60 s")
            consumer.cancel()
            await c.expectError(code: .cancelled, "the iteration of a cancelled task") {
                try await consumer.value
                return "the end of an endless body"
            }
            let closed = await server.waitForClosed(within: .seconds(30))
            c.expect(
                closed, "the connection stayed open after the consuming task was cancelled: \(server.counts)")
            try await c.expectStillWorks()
        },
        Check("streaming.droppingTheStreamStopsTheTransfer") { c in
            let server = try EndlessBodyServer(giveUpAfter: endlessBodyLimit)
            defer { server.stop() }
            do {
                let streamed = try await c.transport.stream(
                    TransportRequest(urlRequest: URLRequest(url: server.url)))
                var iterator = streamed.body.makeAsyncIterator()
                for _ in 0..<3 { c.expect(try await iterator.next() != nil, "the endless body ended") }
            }
            // The stream and its iterator are gone: the transfer is cancelled, never read to its end.
            let closed = await server.waitForClosed(within: .seconds(30))
            c.expect(closed, "the connection stayed open after the stream was dropped: \(server.counts)")
            try await c.expectStillWorks()
        },
        Check("streaming.aConsumerThatIsBehindHoldsTheTransferBack") { c in
            let server = try EndlessBodyServer(giveUpAfter: endlessBodyLimit)
            defer { server.stop() }
            let capacity = 256 << 10
            var request = TransportRequest(urlRequest: URLRequest(url: server.url))
            request.options.streamBufferBytes = capacity
            let streamed = try await c.transport.stream(request)
            var iterator = streamed.body.makeAsyncIterator()
            c.expect(try await iterator.next() != nil, "the endless body ended")
            // Not reading for a while.
            try await Task.sleep(for: .milliseconds(800))
            let sentWhileBehind = server.counts.bytesSent
            try await Task.sleep(for: .milliseconds(400))
            let sentSince = server.counts.bytesSent - sentWhileBehind
            let peak = streamed.body.peakBufferedBytes
            c.expect(
                peak <= 8 * capacity + (1 << 20), "\(peak) bytes waited unread in a \(capacity)-byte stream")
            // Either the transfer pauses, and goes on when the consumer reads again, or a
            // transport that cannot pause (URLSessionTransport on Linux) fails the stream with
            // `.responseTooLarge` and stops the transfer.
            var more: Int64 = 0
            do {
                while more < 8 << 20, let chunk = try await iterator.next() { more += Int64(chunk.count) }
                c.expect(sentSince < 1 << 20, "the server was not held back: \(sentSince) bytes in 400 ms")
                c.expect(
                    sentWhileBehind < 32 << 20,
                    "\(sentWhileBehind) bytes went to a consumer that read nothing")
                c.expect(more >= 8 << 20, "the body ended after \(more) more bytes")
                c.expectEqual(server.counts.connections, 1, "connections")
            } catch let error as CourierError where error.code == .responseTooLarge {
                let closed = await server.waitForClosed(within: .seconds(30))
                c.expect(closed, "the transfer went on after the stream failed: \(server.counts)")
            }
        },
    ]

    /// `NetworkManager.events`: the fields of each event, and reconnecting where the stream left off.
    private static let eventChecks: [Check] = [
        Check("events.fieldsArriveAsSent") { c in
            let path = c.uniquePath("/events/ticks")
            try c.server.addStubs(json: EventStreamStubs.ticks(at: path, delayMilliseconds: 20))
            var events: [ServerSentEvent] = []
            for try await event in try c.manager().events(try c.request(path)) {
                events.append(event)
                if events.count > 4 { break }  // a stream that does not end fails, not hangs
            }
            c.expectEqual(events, EventStreamStubs.tickEvents, "events")
            let ended = c.received(path).filter { $0.headers["Last-Event-ID"] == "2" }
            c.expectEqual(ended.count, 1, "reconnections with Last-Event-ID 2 (answered 204)")
        },
        Check("events.aDroppedConnectionReconnectsWithTheLastEventID") { c in
            let path = c.uniquePath("/events/feed")
            try c.server.addStubs(json: EventStreamStubs.droppedFeed(at: path, delayMilliseconds: 20))
            var data: [String] = []
            for try await event in try c.manager().events(try c.request(path)) {
                data.append(event.data)
                if data.count > 6 { break }  // a stream that does not end fails, not hangs
            }
            c.expectEqual(data, EventStreamStubs.feedData, "data")
            for id in EventStreamStubs.feedResumedIDs {
                let resumed = c.received(path).filter { $0.headers["Last-Event-ID"] == id }
                c.expectEqual(resumed.count, 1, "reconnections with Last-Event-ID \(id)")
            }
        },
    ]

    /// The manager's `CookieJar` on every hop of a redirect chain: the transport keeps each
    /// `Set-Cookie` field apart and sends the `Cookie` header it is given.
    private static let cookieChecks: [Check] = [
        Check("cookies.aSetCookieIsKeptAndSentBack") { c in
            let manager = c.manager()
            _ = try await manager.sendRaw(
                try c.request(c.path("/set-cookie", query: ["cookie": "sid=xyz; Path=/; HttpOnly"])))
            c.expectEqual(manager.cookieJar?.cookieHeader(for: c.server.baseURL), "sid=xyz", "the jar")
            let later = try await c.echo(manager, "/echo/later")
            c.expectEqual(later.header("Cookie"), "sid=xyz", "Cookie on the next request")
            // The transport keeps no cookies of its own.
            let none = try await c.echo(c.manager(cookieJar: nil), "/echo/none")
            c.expect(
                none.header("Cookie") == nil, "a manager without a jar sent \(none.header("Cookie") ?? "")")
        },
        Check("cookies.everySetCookieFieldOfAResponseIsKept") { c in
            // Separate fields, one with a comma in its date: a transport must not merge them into
            // one (a merged "a=1, b=2" would be one cookie, and the last one's Max-Age=0 its own).
            let jar = CookieJar()
            jar.store(from: ["Set-Cookie": "gone=1; Path=/"], for: c.server.baseURL)
            let path = c.path(
                "/set-cookie",
                query: [
                    "cookie": "sid=abc; Path=/; HttpOnly",
                    "cookie": "theme=dark; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/",
                    "cookie": "gone=; Max-Age=0; Path=/",
                ])
            _ = try await c.manager(cookieJar: jar).sendRaw(try c.request(path))
            c.expectEqual(
                jar.cookies.map(\.name).sorted(), ["sid", "theme"],
                "cookies kept after three Set-Cookie fields")
            c.expectEqual(jar.cookieHeader(for: c.server.baseURL), "sid=abc; theme=dark", "Cookie")
        },
        Check("cookies.setCookieFieldsAreReadAsSent") { c in
            // Fields a transport that joins repeated fields must keep apart, values with commas it
            // must not split, and `Expires` dates in the forms servers send (RFC 6265 §5.1.1).
            let cases: [(fields: [String], cookie: String?)] = [
                (["a=b", "=", "c=d"], "a=b; c=d"),
                (["foo", "="], nil),
                (["six", "seven", "=eight", "test=six"], "test=six"),
                (["foo=bar; b,az=qux"], "foo=bar"),
                (["foo=\"bar, baz=qux\""], "foo=\"bar, baz=qux\""),
                (["old=1; Path=/; Expires=Fri 07 Aug 2019 08:04:19 GMT", "new=1"], "new=1"),
                (["old=1; Path=/; Expires=07 Aug 2019 08:04:19 GMT", "new=1"], "new=1"),
            ]
            for (fields, cookie) in cases {
                // A past `Expires` must remove the cookie the jar holds.
                let jar = CookieJar()
                if fields.contains(where: { $0.hasPrefix("old=") }) {
                    jar.store(from: ["Set-Cookie": "old=1; Path=/"], for: c.server.baseURL)
                }
                let path =
                    "/set-cookie?"
                    + fields.map { field in
                        "cookie="
                            + (field.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? field)
                    }.joined(separator: "&")
                _ = try await c.manager(cookieJar: jar).sendRaw(try c.request(path))
                c.expectEqual(jar.cookieHeader(for: c.server.baseURL), cookie, "Cookie after \(fields)")
            }
        },
        Check("cookies.aCookieSetOnARedirectGoesToTheNextHop") { c in
            let manager = c.manager()
            let echo = try await c.echo(
                manager, c.path("/redirect-to", query: ["url": "/echo/home", "cookie": "sid=abc; Path=/"]))
            c.expectEqual(echo.path, "/echo/home", "path")
            c.expectEqual(echo.header("Cookie"), "sid=abc", "Cookie on the hop after the redirect")
            c.expectEqual(manager.cookieJar?.cookieHeader(for: c.server.baseURL), "sid=abc", "the jar")
        },
        Check("cookies.neverGoToAnotherHost") { c in
            let jar = CookieJar()
            jar.store(from: ["Set-Cookie": "old=1; Path=/"], for: c.server.baseURL)
            let manager = c.manager(cookieJar: jar)
            // The server listens on 127.0.0.1; `localhost` is the same socket but another host.
            let elsewhere = "http://localhost:\(c.server.port)/echo/elsewhere"
            let away = try await c.echo(
                manager, c.path("/redirect-to", query: ["url": elsewhere, "cookie": "sid=abc; Path=/"]),
                headers: ["Cookie": "mine=1"])
            c.expectEqual(away.path, "/echo/elsewhere", "path")
            c.expect(
                away.header("Cookie") == nil, "Cookie \(away.header("Cookie") ?? "") went to another host")
            c.expectEqual(jar.cookieHeader(for: c.server.baseURL), "old=1; sid=abc", "the jar")
            let home = try await c.echo(manager, "/echo/home")
            c.expectEqual(home.header("Cookie"), "old=1; sid=abc", "Cookie on the cookies' own host")
        },
        Check("cookies.theCallersCookieHeaderGoesFirst") { c in
            let jar = CookieJar()
            jar.store(from: ["Set-Cookie": "sid=abc; Path=/"], for: c.server.baseURL)
            let echo = try await c.echo(
                c.manager(cookieJar: jar),
                c.path("/redirect-to", query: ["url": "/echo/next", "cookie": "tld=1; Domain=com; Path=/"]),
                headers: ["Cookie": "mine=1"])
            c.expectEqual(echo.header("Cookie"), "mine=1; sid=abc", "Cookie after the redirect")
            c.expectEqual(
                jar.cookies.map(\.name), ["sid"], "cookies kept (one for the domain com is refused)")
        },
    ]

    /// `HTTPCache` in front of the transport: fresh answers never reach the server, stale ones
    /// are revalidated.
    private static let cacheChecks: [Check] = [
        Check("httpCache.aFreshResponseComesFromTheCache") { c in
            let directory = try TemporaryDirectory(prefix: "courier-conformance")
            let (_, path) = try await getTwice(c, "/cache/fresh", cachedIn: directory.url, then: .cache)
            c.expectEqual(c.received(path).count, 1, "requests that reached the server")
        },
        Check("httpCache.aStaleResponseIsRevalidated") { c in
            let directory = try TemporaryDirectory(prefix: "courier-conformance")
            let (manager, path) = try await getTwice(
                c, "/cache/validated", cachedIn: directory.url, then: .revalidated)
            let file = directory.url.appendingPathComponent("download.bin")
            let third = try await manager.download(try c.request(path), to: file)
            c.expectEqual(third.source, .revalidated, "source of a revalidated download")
            c.expect(
                (try? Data(contentsOf: file)) == ConformanceRoutes.cachedBody,
                "the revalidated download differs")
            let etag = ConformanceRoutes.cacheETag
            c.expectEqual(
                c.received(path).map { $0.headers["If-None-Match"] ?? "-" }, ["-", etag, etag],
                "If-None-Match of the requests that reached the server")
        },
    ]

    /// Gets a path under `route` that no other check uses twice, through a manager with an
    /// `HTTPCache` in `directory`, and checks what came back: the route's body from the network,
    /// then from `secondSource`.
    /// - Returns: the manager and the path.
    private static func getTwice(
        _ c: ConformanceContext, _ route: String, cachedIn directory: URL, then secondSource: ResponseSource
    ) async throws -> (NetworkManager, String) {
        let cache = try HTTPCache(directory: directory.appendingPathComponent("cache"))
        let manager = c.manager(interceptors: [cache])
        let path = c.uniquePath(route)
        let first = try await manager.sendRaw(try c.request(path))
        let second = try await manager.sendRaw(try c.request(path))
        c.expectEqual([first.source, second.source], [.network, secondSource], "sources")
        c.expectEqual(second.status, 200, "status of the second response")
        c.expect(first.value == ConformanceRoutes.cachedBody, "the body from the network differs")
        c.expect(second.value == ConformanceRoutes.cachedBody, "the body from the cache differs")
        return (manager, path)
    }

    /// `NetworkManager.download` resumes a cut download with `Range` and `If-Range`.
    private static let resumeChecks: [Check] = [
        Check("resumableDownload.aCutDownloadResumesWithRange") { c in
            let size: Int64 = 2 << 20
            let directory = try TemporaryDirectory(prefix: "courier-conformance")
            let destination = directory.url.appendingPathComponent("resumed.bin")
            let path = c.uniquePath("/resumable/\(size)")
            let request = try c.request(path + "?cut=\(size / 3)")
            let manager = c.manager()
            await c.expectError(code: .connectionLost, "a download the server cut") {
                "status \(try await manager.download(request, to: destination).status)"
            }
            let attributes = try? FileManager.default.attributesOfItem(atPath: destination.path)
            let kept = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
            c.expect(kept > 0 && kept < size, "the cut download kept \(kept) of \(size) bytes")
            let response = try await manager.download(request, to: destination)
            c.expectEqual(response.status, 206, "status of the resumed download")
            c.expect(
                (try? Data(contentsOf: destination)) == Pattern.bytes(offset: 0, count: Int(size)),
                "the resumed file differs from the source")
            let resumed = c.received(path).last
            c.expectEqual(resumed?.headers["Range"], "bytes=\(kept)-", "Range of the resumed request")
            c.expectEqual(
                resumed?.headers["If-Range"], ConformanceRoutes.resumableETag(size: size), "If-Range")
        }
    ]
}
