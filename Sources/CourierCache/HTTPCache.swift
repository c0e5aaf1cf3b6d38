import Courier
import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A private HTTP cache (RFC 9111) on disk, used as an interceptor.
///
/// ```swift
/// import CourierCurl
/// import CourierInterceptors
///
/// let cachesFolder = FileManager.default.temporaryDirectory
/// let cache = try HTTPCache(directory: cachesFolder.appendingPathComponent("http"))
/// let manager = NetworkManager(transport: CurlTransport(), baseURL: baseURL, interceptors: [RetryPolicy(), cache])
/// let notes = try await manager.send(NotesAPI.list())
/// let source = notes.source  // .network, then .cache while fresh, then .revalidated after a 304
/// ```
///
/// - Only `GET` responses are stored; a `HEAD` is answered from a fresh stored `GET`. A `200`
///   to a `HEAD` that went to the server updates the stored `GET` responses it describes (same
///   validators and length) with its header fields, and removes the others (RFC 9111 §4.3.5).
///   Responses to requests that carry their own conditional headers pass through.
/// - A single `Range` (`bytes=a-b`, `a-`, `-n`) is answered from a fresh stored `200` with a
///   `206` and its `Content-Range`, or a `416` with `Content-Range: bytes */length` when no byte
///   of it exists; a stored `206` answers the ranges it covers. An `If-Range` that is not the
///   stored strong `ETag` (or its `Last-Modified`, when that is a strong validator) gets the
///   whole stored `200` instead. Several ranges, another unit or a stale response go to the
///   server; a single-range `206` it sends back is stored for later ranges, never for a
///   request of the whole.
/// - A stored response is used while fresh: `max-age`, else `Expires`, else 10% of the
///   time since `Last-Modified` (at most a day). Otherwise it is revalidated with
///   `If-None-Match` / `If-Modified-Since`; a `304` refreshes its header fields and its body
///   is served, with `Response.source` `.revalidated`.
/// - A stale response with `stale-while-revalidate` (RFC 5861), inside its window, is served
///   at once (`Response.source` `.cache`) and revalidated in a background task, one at a time
///   per stored response; `waitForRevalidations()` waits for them.
/// - A stale response with `stale-if-error` (RFC 5861), inside its window, answers a request
///   the server answered with `500`, `502`, `503` or `504`, or could not be reached for
///   (`Response.source` `.cache`), unless it must be revalidated.
/// - `no-store` is never stored; `no-cache` (response or request) always revalidates;
///   `private` is stored (this cache is private); a request's `max-age`, `min-fresh`,
///   `max-stale` and `only-if-cached` are honoured, `must-revalidate` forbidding `max-stale`.
/// - `Vary` keeps several variants per URL, each served to the requests whose varying fields
///   match the stored request's (lines combined, whitespace around values trimmed); of
///   several that match, the most recent. A request no variant matches is sent with
///   `If-None-Match` listing the others' strong `ETag`s, and a `304` naming one serves it
///   (RFC 9111 §4.3.4). `Vary: *` is not stored. Every response varies on
///   `Authorization` too (kept only as a hash), so one user's answer never goes to another.
/// - A non-error answer to an unsafe method (`POST`, `PUT`, `DELETE`, …) removes every stored
///   variant for its URL and for its same-origin `Location` and `Content-Location`.
/// - Bodies live in `directory` (a folder of the cache's own: files it does not list are
///   deleted), bounded by `maxBytes` with least-recently-used eviction; the index is saved
///   there too, so a new cache on the folder finds what an earlier one stored, and an
///   unreadable index starts the cache empty.
///
/// Put it inside `RetryPolicy` and `AuthInterceptor`, so a hit needs neither.
public final class HTTPCache: Interceptor, Sendable {
    /// What the cache has done since it was created.
    public struct Statistics: Sendable, Hashable {
        /// Responses served from the cache without asking the server.
        public var hits = 0
        /// Responses served from the cache after the server answered `304 Not Modified`.
        public var revalidations = 0
        /// Requests the cache could not answer, sent as they were or revalidated and changed.
        public var misses = 0
        /// Responses written to the cache.
        public var stores = 0
    }

    /// The cache folder.
    public let directory: URL
    /// The most body bytes kept; least recently used entries go first beyond it.
    public let maxBytes: Int64
    let store: CacheStore
    let revalidations = Revalidations()
    private let counters = Locked(Statistics())
    let now: @Sendable () -> Date

    /// Opens or creates a cache in `directory`.
    ///
    /// - Parameters:
    ///   - directory: a folder for the cache alone.
    ///   - maxBytes: the size bound; default 64 MiB.
    /// - Throws: `CourierError` `.invalidConfiguration` when the folder cannot be created.
    public convenience init(directory: URL, maxBytes: Int64 = 64 << 20) throws(CourierError) {
        try self.init(directory: directory, maxBytes: maxBytes, clock: { Date() })
    }

    init(directory: URL, maxBytes: Int64, clock: @escaping @Sendable () -> Date) throws(CourierError) {
        self.directory = directory
        self.maxBytes = maxBytes
        store = try CacheStore(directory: directory, maxBytes: maxBytes)
        now = clock
    }

    /// What the cache has done so far.
    public var statistics: Statistics { counters.withLock { $0 } }

    /// The total size of the stored bodies.
    public var totalSize: Int64 { store.totalSize }

    /// Removes the stored responses for `url`, every variant.
    public func removeResponse(for url: URL) { store.remove(Self.key(url)) }

    /// Removes every stored response.
    public func removeAll() { store.removeAll() }

    /// Answers from the cache, revalidates, or sends and stores, as described above.
    /// - Throws: what `next` throws; `CourierError` `.fileWriteFailed` when a cached body
    ///   cannot be copied to the request's destination file.
    public func intercept(
        _ request: TransportRequest, context: InterceptorContext,
        next: @escaping @Sendable (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        let method = request.method.rawValue
        let url = request.url
        let headers = request.headers
        if !["GET", "HEAD", "OPTIONS", "TRACE"].contains(method) {
            let response = try await next(request)
            if (200..<400).contains(response.status) { invalidate(after: response, to: url) }
            return response
        }
        let directives = CacheControl(headers, isRequest: true)
        let bypass =
            (method != "GET" && method != "HEAD") || directives.noStore || !Redirects.isEmpty(request.body)
            || ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since"].contains {
                headers[$0] != nil
            }
        if bypass { return try await next(request) }
        if method == "GET", let range = headers["Range"] {
            return try await answer(range: range, request, directives, next: next)
        }
        if headers["If-Range"] != nil { return try await next(request) }

        let key = Self.key(url)
        let stored = selected(key, for: headers)
        if let stored, usable(stored, directives), let response = try serve(stored, request, source: .cache) {
            count(\.hits)
            return response
        }
        if directives.onlyIfCached {
            return TransportResponse(status: 504, headers: ["Content-Type": "text/plain"], url: url)
        }
        guard method == "GET" else { return try await send(head: request, key: key, next: next) }
        if let stored, revalidatesInBackground(stored, directives),
            let response = try serve(stored, request, source: .cache)
        {
            count(\.hits)
            revalidateInBackground(stored, request, next: next)
            return response
        }
        // No variant selected: the server may still name one of the others by its ETag.
        let offered = stored == nil ? otherVariants(key, for: headers) : []
        let outgoing =
            stored == nil
            ? Self.conditional(request, offering: offered) : Self.conditional(request, on: stored)
        let requestTime = now()
        let response: TransportResponse
        do {
            response = try await next(outgoing)
        } catch let error as CourierError where Self.outages.contains(error.code) {
            if let stored, let stale = try serve(stored, request, standingInForErrorWith: directives) {
                return stale
            }
            throw error
        }
        if Self.errorStatuses.contains(response.status), let stored,
            let stale = try serve(stored, request, standingInForErrorWith: directives)
        {
            return stale
        }
        if response.status == 304,
            let validated = stored.flatMap({ $0.hasValidator ? $0 : nil })
                ?? Self.named(by: response, in: offered)
        {
            let refreshed = refresh(validated, with: response, sentAt: requestTime)
            if let served = try serve(refreshed, request, source: .revalidated) {
                count(\.revalidations)
                return served
            }
            // The body went missing: fetch it whole.
            return try await sendAgain(request, key: key, next: next)
        }
        // A 304 to the cache's own condition that names no stored response answers nothing.
        if response.status == 304, !offered.isEmpty {
            return try await sendAgain(request, key: key, next: next)
        }
        count(\.misses)
        return keep(response, for: outgoing, headers: headers, key: key, sentAt: requestTime)
    }

    /// Sends `request` as the caller made it and stores the answer.
    private func sendAgain(
        _ request: TransportRequest, key: String,
        next: @Sendable (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        let requestTime = now()
        let response = try await next(request)
        count(\.misses)
        return keep(response, for: request, headers: request.headers, key: key, sentAt: requestTime)
    }

    /// `request` made conditional on the validators of `stored`, if any.
    static func conditional(_ request: TransportRequest, on stored: CachedResponse?) -> TransportRequest {
        var outgoing = request
        let storedHeaders = stored?.httpHeaders
        if let etag = storedHeaders?["ETag"] {
            outgoing.headers.replaceOrAdd(name: "If-None-Match", value: etag)
        }
        if let modified = storedHeaders?["Last-Modified"] {
            outgoing.headers.replaceOrAdd(name: "If-Modified-Since", value: modified)
        }
        return outgoing
    }

    /// `stored` with the header fields of a `304` (or of a `200` to a `HEAD`) to a request sent
    /// at `requestTime`, saved; when another request stored a newer response meanwhile, that one.
    func refresh(_ stored: CachedResponse, with notModified: TransportResponse, sentAt requestTime: Date)
        -> CachedResponse
    {
        let received = now()
        var refreshed = stored
        refreshed.merge(notModified.headers, receivedAt: received)
        refreshed.requestTime = requestTime.timeIntervalSince1970
        refreshed.responseTime = received.timeIntervalSince1970
        guard store.update(refreshed, replacing: stored) else {
            return store.record(id: stored.id) ?? refreshed
        }
        return refreshed
    }

    /// The stored complete response for `key` that a request with `headers` selects: of those
    /// whose varying fields match, the most recent (RFC 9111 §4.1).
    func selected(_ key: String, for headers: HTTPHeaders) -> CachedResponse? {
        store.variants(forKey: key).filter { $0.status != 206 && $0.varyMatches(headers) }
            .max { ($0.responseTime, $0.lastUse) < ($1.responseTime, $1.lastUse) }
    }

    /// Whether `stored` may answer a request with `directives` without asking the server.
    func usable(_ stored: CachedResponse, _ directives: CacheControl) -> Bool {
        let responseDirectives = CacheControl(stored.httpHeaders)
        if responseDirectives.noCache || directives.noCache { return false }
        let age = stored.age(at: now())
        let lifetime = stored.freshnessLifetime
        if let maxAge = directives.maxAge, age > TimeInterval(maxAge) { return false }
        if let minFresh = directives.minFresh, lifetime - age < TimeInterval(minFresh) { return false }
        if lifetime > age { return true }
        guard let maxStale = directives.maxStale, !responseDirectives.mustRevalidate else { return false }
        return maxStale.map { age - lifetime <= TimeInterval($0) } ?? true
    }

    /// `stored` as a response to `request`, or nil when its body cannot be read. With `part`,
    /// a `206` of those bytes of the stored body, labelled with `part.contentRange`.
    func serve(
        _ stored: CachedResponse, _ request: TransportRequest, source: ResponseSource,
        part: (bytes: ClosedRange<Int64>, contentRange: String)? = nil
    ) throws -> TransportResponse? {
        guard let record = store.use(stored.id) else { return nil }
        let file = store.file(of: record)
        var headers = record.httpHeaders
        let age = min(max(0, record.age(at: now())), CachedResponse.maxDeltaSeconds)
        headers.replaceOrAdd(name: "Age", value: String(Int(age)))
        let isHead = request.method == .head
        var status = record.status
        // The stored bytes to send: none for a HEAD or an empty body.
        var bytes: ClosedRange<Int64>? = record.size > 0 ? 0...(record.size - 1) : nil
        if let part {
            status = 206
            bytes = part.bytes
            headers.replaceOrAdd(name: "Content-Range", value: part.contentRange)
            headers.replaceOrAdd(name: "Content-Length", value: String(part.bytes.count))
        }
        if isHead { bytes = nil }
        let count = bytes.map { Int64($0.count) } ?? 0
        let body: ResponseBody
        if request.options.delivery == .streamed, let bytes {
            // Read as the caller reads, never whole in memory; a file gone meanwhile is a miss.
            guard fileSize(at: file) == record.size,
                let stream = try? ResponseStream(contentsOf: file, bytes: bytes)  // allowed: a miss
            else { return nil }
            body = .stream(stream)
        } else if let bytes {
            guard count <= request.options.maxResponseBytes,
                let data = Self.read(bytes, of: file, whole: record.size)
            else { return nil }
            body = .data(data)
        } else {
            body = .data(Data())
        }
        return TransportResponse(
            status: status, headers: headers, body: body, url: request.url, source: source)
    }

    /// `bytes` of `file`, which must be `whole` bytes long; nil when it cannot be read or its
    /// size changed.
    private static func read(_ bytes: ClosedRange<Int64>, of file: URL, whole: Int64) -> Data? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard (try? handle.seekToEnd()) == UInt64(whole),
            (try? handle.seek(toOffset: UInt64(bytes.lowerBound))) != nil,
            let data = try? handle.read(upToCount: bytes.count), data.count == bytes.count
        else { return nil }
        return data
    }

    /// Stores `response` when RFC 9111 §3 allows it and it can ever be used again: a whole
    /// body at once, a streaming one once it has passed whole (nothing when it is cut,
    /// cancelled or larger than the cache).
    /// - Returns: the response to pass on: `response`, its stream watched as it passes.
    func keep(
        _ response: TransportResponse, for request: TransportRequest, headers: HTTPHeaders, key: String,
        sentAt requestTime: Date
    ) -> TransportResponse {
        let directives = CacheControl(response.headers)
        let vary = Array(
            Set(
                response.headers.values(for: "Vary").flatMap { $0.split(separator: ",") }
                    .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }))
        let redirected = response.url.map { Self.key($0) != key } ?? false
        let hasValidator = response.headers["ETag"] != nil || response.headers["Last-Modified"] != nil
        let explicit = directives.maxAge != nil || response.headers["Expires"] != nil
        let heuristic = CachedResponse.heuristicallyCacheable.contains(response.status) || directives.isPublic
        let hasFreshness = explicit || (heuristic && response.headers["Last-Modified"] != nil)
        // must-understand: a status whose rules this cache knows overrides no-store; any other
        // is never stored (RFC 9111 §5.2.2.3).
        let understood = CachedResponse.heuristicallyCacheable.contains(response.status)
        let noStore = directives.mustUnderstand ? !understood : directives.noStore
        let storablePart = response.status != 206 || ContentRange(part: response.headers) != nil
        guard !noStore, !vary.contains("*"), !redirected, storablePart, heuristic || explicit,
            hasValidator || hasFreshness
        else { return response }
        var stored = CachedResponse(
            key: key, file: "", size: 0, status: response.status,
            headers: CachedResponse.storable(response.headers).map { [$0.name, $0.value] },
            vary: Dictionary(
                (vary + CachedResponse.implicitVary).map { ($0, CachedResponse.normalized(headers, $0)) }
            ) {
                first, _ in first
            },
            requestTime: requestTime.timeIntervalSince1970, responseTime: now().timeIntervalSince1970,
            lastUse: 0)
        stored.file = CacheStore.fileName(forKey: stored.id, fileExtension: request.url.pathExtension)
        let temporary = store.temporaryFile()
        let written: Bool
        switch response.body {
        case .data(let data):
            written = (try? data.write(to: temporary)) != nil  // allowed: not stored
        case .file(let file, let byteCount):
            written =
                byteCount <= maxBytes
                && (try? FileManager.default.copyItem(at: file, to: temporary)) != nil  // allowed: not stored
        case .stream(let stream):
            guard let sink = BodySink(temporary, limit: maxBytes) else { return response }
            var watched = response
            let pending = stored
            watched.body = .stream(
                stream.observed(
                    chunk: { sink.write($0) },
                    end: { [weak self] error in
                        guard sink.close(), error == nil, let self else {
                            try? FileManager.default.removeItem(at: temporary)  // allowed: not stored
                            return
                        }
                        var whole = pending
                        whole.responseTime = self.now().timeIntervalSince1970
                        self.commit(temporary, as: whole)
                    }))
            return watched
        }
        if written {
            commit(temporary, as: stored)
        } else {
            // A write cut part way (a full disk) leaves no partial file behind.
            try? FileManager.default.removeItem(at: temporary)  // allowed: not stored
        }
        return response
    }

    /// Moves a body written to `temporary` into place as `stored`.
    private func commit(_ temporary: URL, as stored: CachedResponse) {
        if store.commit(temporary, as: stored) { count(\.stores) }
    }

    /// Removes what an unsafe request to `url` may have changed (RFC 9111 §4.4).
    private func invalidate(after response: TransportResponse, to url: URL) {
        store.remove(Self.key(url))
        for name in ["Location", "Content-Location"] {
            guard let value = response.headers[name],
                let target = URL(string: value, relativeTo: url)?.absoluteURL,
                Redirects.sameOrigin(url, target)
            else { continue }
            store.remove(Self.key(target))
        }
    }

    func count(_ counter: WritableKeyPath<Statistics, Int>) {
        counters.withLock { $0[keyPath: counter] += 1 }
    }

    /// The cache key of a URL: the URL without its fragment.
    static func key(_ url: URL) -> String {
        var text = url.absoluteString
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        return text
    }
}
