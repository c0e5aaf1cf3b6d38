import Courier
import CourierPrimitives
import Foundation
import Testing

@testable import CourierCache

/// `stale-while-revalidate` (RFC 5861): a stale response inside the window is served at once
/// and revalidated in the background.
extension HTTPCacheTests {
    @Test("inside the stale-while-revalidate window the stale response is served from the cache")
    func staleWhileRevalidate() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Cache-Control", "max-age=1, stale-while-revalidate=60"), ("ETag", "\"a\"")])
        _ = try await send(cache, origin)
        clock.advance(30)
        let stale = try await send(cache, origin)
        #expect(stale.source == .cache)
        #expect(stale.body.data == Data("v1".utf8))
        await cache.waitForRevalidations()
        #expect(origin.count == 2)
        #expect(origin.last?.value(forHTTPHeaderField: "If-None-Match") == "\"a\"")
        let fresh = try await send(cache, origin)
        #expect(fresh.source == .cache)
        #expect(fresh.headers["X-Revalidated"] == "yes", "the 304 refreshed the stored response")
        await cache.waitForRevalidations()
        #expect(origin.count == 2, "fresh again: no second revalidation")
    }

    @Test(
        "after the window, or when it may not be served stale, the response is revalidated first",
        arguments: [
            ("max-age=1, stale-while-revalidate=10", [String: String]()),
            ("max-age=1, stale-while-revalidate=60, must-revalidate", [:]),
            ("max-age=1, stale-while-revalidate=60, no-cache", [:]),
            ("max-age=1, stale-while-revalidate=60", ["Cache-Control": "no-cache"]),
            ("max-age=1, stale-while-revalidate=60", ["Cache-Control": "max-age=5"]),
        ])
    func outsideTheWindow(cacheControl: String, request: [String: String]) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Cache-Control", cacheControl), ("ETag", "\"a\"")])
        _ = try await send(cache, origin)
        clock.advance(30)
        #expect(try await send(cache, origin, headers: request).source == .revalidated)
        await cache.waitForRevalidations()
        #expect(origin.count == 2)
    }

    @Test("one background revalidation per entry at a time; a new answer replaces the stored one")
    func oneRevalidationPerEntry() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let (released, release) = AsyncStream<Void>.makeStream()
        let sent = Locked(0)
        let clock = self.clock
        let next: @Sendable (TransportRequest) async throws -> TransportResponse = { request in
            let number = sent.withLock {
                $0 += 1
                return $0
            }
            if number > 1 {
                #expect(request.headers["If-None-Match"] == "\"1\"")
                #expect(
                    request.options.delivery == .whole, "the cache's own revalidation reads the body whole")
                for await _ in released { break }
            }
            return TransportResponse(
                status: 200,
                headers: [
                    "Cache-Control": "max-age=10, stale-while-revalidate=60", "ETag": "\"\(number)\"",
                    "Date": Self.httpDate(clock.now),
                ],
                body: .data(Data("v\(number)".utf8)))
        }
        func get() async throws -> TransportResponse {
            let request = TransportRequest(url: Self.url)
            return try await cache.intercept(
                request, context: InterceptorContext(originalRequest: request), next: next)
        }
        _ = try await get()
        clock.advance(20)
        for _ in 0..<3 {
            let stale = try await get()
            #expect(stale.source == .cache)
            #expect(stale.body.data == Data("v1".utf8))
        }
        release.yield()
        await cache.waitForRevalidations()
        #expect(sent.withLock { $0 } == 2, "one background request for three stale answers")
        let replaced = try await get()
        #expect(replaced.source == .cache)
        #expect(replaced.body.data == Data("v2".utf8))
    }

    @Test("a failed background revalidation leaves the stale response, and a later one may run")
    func failedRevalidation() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let fails = Locked(true)
        let good = origin([("Cache-Control", "max-age=1, stale-while-revalidate=60"), ("ETag", "\"a\"")])
        let origin = Origin { request in
            if request.value(forHTTPHeaderField: "If-None-Match") != nil, fails.withLock({ $0 }) {
                return TransportResponse(status: 503, headers: ["Cache-Control": "no-store"])
            }
            return good.respond(request)
        }
        _ = try await send(cache, origin)
        clock.advance(10)
        #expect(try await send(cache, origin).source == .cache)
        await cache.waitForRevalidations()
        fails.withLock { $0 = false }
        let stillStale = try await send(cache, origin)
        #expect(stillStale.source == .cache)
        #expect(stillStale.body.data == Data("v1".utf8))
        await cache.waitForRevalidations()
        #expect(origin.count == 3)
    }

    @Test("a cache that goes away while revalidating is not kept alive, nor crashed")
    func cacheGoesAway() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        weak var weakCache: HTTPCache?
        let (released, release) = AsyncStream<Void>.makeStream()
        let sent = Locked(0)
        do {
            let cache = try cache()
            weakCache = cache
            let origin = origin([
                ("Cache-Control", "max-age=1, stale-while-revalidate=60"), ("ETag", "\"a\""),
            ])
            _ = try await send(cache, origin)
            clock.advance(10)
            let request = TransportRequest(url: Self.url)
            let stale = try await cache.intercept(
                request, context: InterceptorContext(originalRequest: request)
            ) {
                _ in
                sent.withLock { $0 += 1 }
                for await _ in released { break }
                throw CancellationError()
            }
            #expect(stale.source == .cache)
        }
        #expect(weakCache == nil, "the background task holds the cache only weakly")
        release.finish()
    }
}
