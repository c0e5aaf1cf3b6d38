import Courier
import CourierPrimitives
import Foundation
import Testing

@testable import CourierCache

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache's rules, against a scripted origin and a clock the test moves.
@Suite("HTTPCache")
struct HTTPCacheTests {
    /// A scripted server: answers with `respond` and records what it was asked.
    final class Origin: Sendable {
        let requests = Locked<[URLRequest]>([])
        let respond: @Sendable (URLRequest) -> TransportResponse

        init(_ respond: @escaping @Sendable (URLRequest) -> TransportResponse) { self.respond = respond }

        func next(_ request: TransportRequest) async throws -> TransportResponse {
            requests.withLock { $0.append(request.urlRequest) }
            return respond(request.urlRequest)
        }

        var count: Int { requests.withLock { $0.count } }
        var last: URLRequest? { requests.withLock { $0.last } }
    }

    final class Clock: Sendable {
        let time = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
        var now: Date { time.withLock { $0 } }
    }

    static let url = URL(string: "http://api.test/users/1")!

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.string(from: date)
    }

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("http-cache-\(UUID())")
    let clock = Clock()

    func cache(maxBytes: Int64 = 1 << 20) throws -> HTTPCache {
        let clock = self.clock
        return try HTTPCache(directory: folder, maxBytes: maxBytes, clock: { clock.now })
    }

    /// Sends a request through `cache` to `origin`; `lines` are header fields added after
    /// `headers`, in order, so a field can be given twice.
    func send(
        _ cache: HTTPCache, _ origin: Origin, _ method: String = "GET", url: URL = url,
        headers: [String: String] = [:], lines: [(String, String)] = []
    ) async throws -> TransportResponse {
        let request = TransportRequest(
            method: HTTPMethod(rawValue: method), url: url,
            headers: HTTPHeaders(headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } + lines))
        return try await cache.intercept(
            request, context: InterceptorContext(originalRequest: request),
            next: { try await origin.next($0) })
    }

    /// An origin answering `body` with `headers`, or 304 when `If-None-Match` matches its ETag.
    func origin(_ headers: [(String, String)], body: String = "v1") -> Origin {
        let clock = self.clock
        return Origin { request in
            var fields = HTTPHeaders(headers)
            fields.replaceOrAdd(name: "Date", value: Self.httpDate(clock.now))
            if let etag = fields["ETag"], request.value(forHTTPHeaderField: "If-None-Match") == etag {
                return TransportResponse(status: 304, headers: ["ETag": etag, "X-Revalidated": "yes"])
            }
            if let modified = fields["Last-Modified"],
                request.value(forHTTPHeaderField: "If-Modified-Since") == modified
            {
                return TransportResponse(status: 304, headers: fields)
            }
            return TransportResponse(
                status: 200, headers: fields, body: .data(Data(body.utf8)), url: request.url)
        }
    }

    @Test("max-age: fresh hits, then a 304 revalidation that merges the new header fields")
    func maxAgeThenRevalidation() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Cache-Control", "max-age=60"), ("ETag", "\"a\""), ("Content-Length", "2")])
        #expect(try await send(cache, origin).source == .network)
        clock.advance(30)
        let hit = try await send(cache, origin)
        #expect(hit.source == .cache)
        #expect(hit.body.data == Data("v1".utf8))
        #expect(hit.headers["Age"] == "30")
        #expect(origin.count == 1)
        clock.advance(31)
        let revalidated = try await send(cache, origin)
        #expect(origin.last?.value(forHTTPHeaderField: "If-None-Match") == "\"a\"")
        #expect(revalidated.source == .revalidated)
        #expect(revalidated.status == 200)
        #expect(revalidated.body.data == Data("v1".utf8))
        #expect(revalidated.headers["X-Revalidated"] == "yes")
        #expect(revalidated.headers["Content-Length"] == "2")
        #expect(try await send(cache, origin).source == .cache, "the 304 made it fresh again")
        #expect(cache.statistics == HTTPCache.Statistics(hits: 2, revalidations: 1, misses: 1, stores: 1))
    }

    @Test("Expires minus Date gives the freshness; an invalid Expires is stale at once")
    func expires() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let fresh = origin([("Expires", Self.httpDate(clock.now.addingTimeInterval(100))), ("ETag", "\"e\"")])
        _ = try await send(cache, fresh)
        clock.advance(50)
        #expect(try await send(cache, fresh).source == .cache)
        clock.advance(60)
        #expect(try await send(cache, fresh).source == .revalidated)
        let invalid = origin([("Expires", "0"), ("ETag", "\"e\"")])
        let other = URL(string: "http://api.test/other")!
        _ = try await send(cache, invalid, url: other)
        #expect(try await send(cache, invalid, url: other).source == .revalidated)
    }

    @Test("heuristic freshness: 10% of the time since Last-Modified, then If-Modified-Since")
    func heuristic() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let modified = Self.httpDate(clock.now.addingTimeInterval(-1000))
        let origin = origin([("Last-Modified", modified)])
        _ = try await send(cache, origin)
        clock.advance(90)
        #expect(try await send(cache, origin).source == .cache)
        clock.advance(20)
        #expect(try await send(cache, origin).source == .revalidated)
        #expect(origin.last?.value(forHTTPHeaderField: "If-Modified-Since") == modified)
    }

    @Test("no-store is never stored; no-cache always revalidates; private is stored")
    func directives() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let noStore = origin([("Cache-Control", "no-store, max-age=60"), ("ETag", "\"n\"")])
        _ = try await send(cache, noStore)
        #expect(try await send(cache, noStore).source == .network)
        #expect(noStore.last?.value(forHTTPHeaderField: "If-None-Match") == nil)

        let noCache = origin([("Cache-Control", "no-cache, max-age=60"), ("ETag", "\"c\"")])
        let second = URL(string: "http://api.test/no-cache")!
        _ = try await send(cache, noCache, url: second)
        #expect(try await send(cache, noCache, url: second).source == .revalidated)

        let isPrivate = origin([("Cache-Control", "private, max-age=60")])
        let third = URL(string: "http://api.test/private")!
        _ = try await send(cache, isPrivate, url: third)
        #expect(try await send(cache, isPrivate, url: third).source == .cache)
        #expect(
            try await send(cache, isPrivate, url: third, headers: ["Cache-Control": "no-cache"]).source
                == .network,
            "a request's no-cache goes to the server (no validator: a full request)")
    }

    @Test("max-stale serves a stale response, unless it must be revalidated")
    func mustRevalidate() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let lax = origin([("Cache-Control", "max-age=10"), ("ETag", "\"l\"")])
        let strict = origin([("Cache-Control", "max-age=10, must-revalidate"), ("ETag", "\"s\"")])
        let strictURL = URL(string: "http://api.test/strict")!
        _ = try await send(cache, lax)
        _ = try await send(cache, strict, url: strictURL)
        clock.advance(30)
        let stale = ["Cache-Control": "max-stale=60"]
        #expect(try await send(cache, lax, headers: stale).source == .cache)
        #expect(try await send(cache, lax, headers: ["Cache-Control": "max-stale=5"]).source == .revalidated)
        #expect(try await send(cache, strict, url: strictURL, headers: stale).source == .revalidated)
    }

    @Test("Vary: another value of the varying field is a miss and replaces the variant")
    func vary() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")])
        _ = try await send(cache, origin, headers: ["Accept-Language": "en"])
        #expect(try await send(cache, origin, headers: ["Accept-Language": "en"]).source == .cache)
        #expect(try await send(cache, origin, headers: ["Accept-Language": "fr"]).source == .network)
        #expect(try await send(cache, origin, headers: ["Accept-Language": "fr"]).source == .cache)
        let star = self.origin([("Cache-Control", "max-age=60"), ("Vary", "*")])
        let other = URL(string: "http://api.test/star")!
        _ = try await send(cache, star, url: other)
        #expect(try await send(cache, star, url: other).source == .network)
    }

    @Test("another Authorization is another variant; no credential reaches the disk")
    func authorization() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Cache-Control", "private, max-age=60")])
        _ = try await send(cache, origin, headers: ["Authorization": "Bearer ann-token"])
        #expect(
            try await send(cache, origin, headers: ["Authorization": "Bearer ann-token"]).source == .cache)
        #expect(
            try await send(cache, origin, headers: ["Authorization": "Bearer bob-token"]).source == .network)
        #expect(try await send(cache, origin).source == .network)
        let index = try String(
            contentsOf: folder.appendingPathComponent(".courier-index.json"), encoding: .utf8)
        #expect(!index.contains("token"), "\(index)")
    }

    @Test("a folder that cannot be made is a typed error")
    func badFolder() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-folder-\(UUID())")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = #expect(throws: CourierError.self) {
            try HTTPCache(directory: file.appendingPathComponent("cache"))
        }
        #expect(error?.code == .invalidConfiguration)
    }

    @Test("an unsafe method's success removes the URL and its same-origin Location; an error does not")
    func invalidation() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let fresh = origin([("Cache-Control", "max-age=600")])
        let list = URL(string: "http://api.test/users")!
        let elsewhere = URL(string: "http://cdn.test/users/1")!
        for url in [Self.url, list, elsewhere] { _ = try await send(cache, fresh, url: url) }
        let failing = Origin { _ in TransportResponse(status: 500) }
        _ = try await send(cache, failing, "POST", url: list)
        #expect(try await send(cache, fresh, url: list).source == .cache, "a 500 changed nothing")
        let created = Origin { _ in
            TransportResponse(
                status: 201, headers: ["Location": "/users/1", "Content-Location": "http://cdn.test/users/1"])
        }
        _ = try await send(cache, created, "POST", url: list)
        #expect(try await send(cache, fresh, url: list).source == .network)
        #expect(try await send(cache, fresh).source == .network, "the Location was removed")
        #expect(try await send(cache, fresh, url: elsewhere).source == .cache, "another origin is left alone")
        _ = try await send(cache, created, "DELETE")
        #expect(try await send(cache, fresh).source == .network)
    }

    @Test("a HEAD is answered from a fresh stored GET; a HEAD or POST answer is never stored")
    func head() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Cache-Control", "max-age=60")])
        _ = try await send(cache, origin, "HEAD")
        _ = try await send(cache, origin, "POST")
        #expect(origin.count == 2)
        #expect(try await send(cache, origin).source == .network)
        let head = try await send(cache, origin, "HEAD")
        #expect(head.source == .cache)
        #expect(head.body.data.isEmpty)
        #expect(origin.count == 3)
    }

    @Test("bounded by size with LRU eviction; reopened from disk; a corrupt index starts empty")
    func diskStore() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let origin = origin([("Cache-Control", "max-age=600")], body: String(repeating: "x", count: 100))
        let urls = (0..<3).map { URL(string: "http://api.test/item/\($0)")! }
        do {
            let cache = try cache(maxBytes: 250)
            _ = try await send(cache, origin, url: urls[0])
            _ = try await send(cache, origin, url: urls[1])
            _ = try await send(cache, origin, url: urls[0])  // 0 is now the most recent
            _ = try await send(cache, origin, url: urls[2])  // evicts 1
            #expect(cache.totalSize == 200)
        }
        let reopened = try cache(maxBytes: 250)
        #expect(try await send(reopened, origin, url: urls[0]).source == .cache)
        #expect(try await send(reopened, origin, url: urls[2]).source == .cache)
        #expect(try await send(reopened, origin, url: urls[1]).source == .network)
        try Data("{not json".utf8).write(to: folder.appendingPathComponent(".courier-index.json"))
        let emptied = try cache(maxBytes: 250)
        #expect(emptied.totalSize == 0)
        #expect(try await send(emptied, origin, url: urls[0]).source == .network)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.filter { $0 != ".courier-index.json" }.count == 1, "\(files)")
    }

    @Test("a damaged index (an empty header pair, a use counter at its maximum) is survived, not a crash")
    func damagedIndex() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let origin = origin([("Cache-Control", "max-age=600")])
        do { _ = try await send(try cache(), origin) }
        let indexFile = folder.appendingPathComponent(".courier-index.json")
        var index = try String(contentsOf: indexFile, encoding: .utf8)
        #expect(index.contains(#""headers":[["#), "\(index)")
        #expect(index.contains(#""clock":"#), "\(index)")
        index = index.replacingOccurrences(of: #""headers":["#, with: #""headers":[[],"#)
        index = index.replacingOccurrences(
            of: #""clock":[0-9]+"#, with: #""clock":18446744073709551615"#, options: .regularExpression)
        try Data(index.utf8).write(to: indexFile)
        let reopened = try cache()
        // Served from the damaged record (its real fields are intact), then stored again.
        #expect(try await send(reopened, origin).source == .cache)
        #expect(
            try await send(reopened, origin, url: URL(string: "http://api.test/other")!).source == .network)
        #expect(try await send(reopened, origin, url: URL(string: "http://api.test/other")!).source == .cache)
    }

    @Test("a changed resource answers 200 to the revalidation and replaces the stored one")
    func changed() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        _ = try await send(cache, origin([("ETag", "\"1\"")], body: "old"))
        let newer = origin([("ETag", "\"2\"")], body: "new")
        let response = try await send(cache, newer)
        #expect(newer.last?.value(forHTTPHeaderField: "If-None-Match") == "\"1\"")
        #expect(response.source == .network)
        let again = try await send(cache, newer)
        #expect(again.source == .revalidated)
        #expect(again.body.data == Data("new".utf8))
    }

    @Test(
        "a hostile Age or Cache-Control is read safely: a huge Age is capped, a malformed one ignored",
        arguments: ["99999999999999999999", "inf", "nan", "1e30", "-5"])
    func hostileAge(age: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Cache-Control", "max-age=60, =, max-age=,"), ("ETag", "\"h\""), ("Age", age)])
        #expect(try await send(cache, origin).source == .network)
        // Stale at once when the Age was taken (huge), fresh when it was ignored: both are
        // answered, revalidated or from the cache, and the served Age is a whole number.
        let next = try await send(cache, origin, headers: ["Cache-Control": "max-stale"])
        #expect(next.status == 200)
        #expect(next.headers["Age"].flatMap { Int($0) } != nil, "Age \(next.headers["Age"] ?? "none")")
        clock.advance(120)
        #expect(try await send(cache, origin).source == .revalidated)
    }

    @Test("Cache-Control with an empty directive name is ignored, not a crash")
    func emptyDirectiveName() {
        let control = CacheControl(["Cache-Control": "=, max-age=30,=5, no-cache"])
        #expect(control.maxAge == 30)
        #expect(control.noCache)
    }

    /// Two revalidations of one URL at once: the one answered 200 stores a new response while
    /// the other waits for its 304; that 304 must not put the old head on the new body.
    @Test("a late 304 does not overwrite a newer response stored meanwhile")
    func lateNotModifiedKeepsTheNewerResponse() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let first = origin([("Cache-Control", "max-age=10"), ("ETag", "\"a\"")], body: "v1")
        _ = try await send(cache, first)
        clock.advance(20)
        let request = TransportRequest(url: Self.url)
        let clock = self.clock
        let late = try await cache.intercept(request, context: InterceptorContext(originalRequest: request)) {
            conditional in
            #expect(conditional.headers["If-None-Match"] == "\"a\"")
            // Meanwhile another request revalidates too, and the resource has changed.
            let other = try await cache.intercept(
                request, context: InterceptorContext(originalRequest: request)
            ) {
                _ in
                TransportResponse(
                    status: 200,
                    headers: [
                        "Cache-Control": "max-age=60", "ETag": "\"b\"", "Date": Self.httpDate(clock.now),
                    ],
                    body: .data(Data("v2".utf8)))
            }
            #expect(other.body.data == Data("v2".utf8))
            return TransportResponse(status: 304, headers: ["ETag": "\"a\""])
        }
        #expect(late.body.data == Data("v2".utf8))
        #expect(late.headers["ETag"] == "\"b\"")
        let after = try await send(cache, first)
        #expect(after.source == .cache)
        #expect(after.body.data == Data("v2".utf8))
        #expect(after.headers["ETag"] == "\"b\"", "the stored head is the newer response's")
    }
}
