import Courier
import Foundation
import Testing

@testable import CourierCache

/// `Cache-Control` parsing and the freshness rules of a private cache (RFC 9111 §4.2, §5.2).
extension HTTPCacheTests {
    /// A response's `Cache-Control` lines and whether the response is fresh a few seconds later.
    static let directiveCases: [(lines: [String], fresh: Bool)] = [
        (["max-age=3600"], true),
        (["MaX-AgE=3600"], true),
        (["max-age=003600"], true),
        (["max-age=\"3600\""], true),
        (["foobar, max-age=3600"], true),
        (["max-age=1800, max-age=1"], true),  // the first wins
        (["max-age=1800", "max-age=1"], true),
        (["extension=\"max-age=3600\", max-age=1"], false),
        (["max-age=1, extension=\"max-age=3600\""], false),
        (["extension=\"a, max-age=3600\", max-age=1"], false),
        (["max-age =3600"], false),
        (["max-age= 3600"], false),
        (["max-age='3600'"], false),
        (["max-age=-3600"], false),
        (["max-age=3600.5"], false),
        (["max-age=a3600"], false),
        (["max-age=0"], false),
        (["s-maxage=3600, max-age=1"], false),  // a private cache ignores s-maxage
        (["s-maxage=3600", "max-age=1"], false),
        (["max-age=3600, no-cache"], false),
        (["max-age=3600, No-CaChE"], false),
        (["max-age=99999999999"], true),
    ]

    @Test(
        "Cache-Control directives: tokens and quoted strings, first occurrence, invalid is stale",
        arguments: directiveCases)
    func directiveParsing(lines: [String], fresh: Bool) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin(lines.map { ("Cache-Control", $0) })
        _ = try await send(cache, origin)
        clock.advance(3)
        #expect(try await send(cache, origin).source == (fresh ? .cache : .network), "\(lines)")
    }

    @Test("proxy-revalidate binds only shared caches: a private cache may serve it stale")
    func proxyRevalidate() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Cache-Control", "max-age=1, proxy-revalidate"), ("ETag", "\"p\"")])
        _ = try await send(cache, origin)
        clock.advance(10)
        #expect(try await send(cache, origin, headers: ["Cache-Control": "max-stale=60"]).source == .cache)
    }

    @Test(
        "heuristic freshness: only heuristically cacheable statuses, or public",
        arguments: [
            (200, "", true), (404, "", true), (501, "", true), (201, "", false), (403, "", false),
            (502, "", false), (599, "", false), (599, "public", true),
        ])
    func heuristicStatuses(status: Int, cacheControl: String, fresh: Bool) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let modified = Self.httpDate(clock.now.addingTimeInterval(-86_400))
        let clock = self.clock
        let origin = Origin { _ in
            var headers: HTTPHeaders = ["Last-Modified": modified, "Date": Self.httpDate(clock.now)]
            if !cacheControl.isEmpty { headers.add(name: "Cache-Control", value: cacheControl) }
            return TransportResponse(status: status, headers: headers, body: .data(Data("b".utf8)))
        }
        _ = try await send(cache, origin)
        clock.advance(10)
        #expect(try await send(cache, origin).source == (fresh ? .cache : .network), "\(status)")
    }

    @Test(
        "must-understand lets a known status be stored despite no-store; an unknown one is not",
        arguments: [(200, true), (599, false)])
    func mustUnderstand(status: Int, stored: Bool) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = Origin { _ in
            TransportResponse(
                status: status, headers: ["Cache-Control": "max-age=3600, no-store, must-understand"],
                body: .data(Data("b".utf8)))
        }
        _ = try await send(cache, origin)
        #expect(try await send(cache, origin).source == (stored ? .cache : .network))
    }

    @Test("Pragma: no-cache binds requests only")
    func pragmaInAResponse() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([
            ("Last-Modified", Self.httpDate(clock.now.addingTimeInterval(-10_000))), ("Pragma", "no-cache"),
        ])
        _ = try await send(cache, origin)
        #expect(try await send(cache, origin).source == .cache)
        #expect(try await send(cache, origin, headers: ["Pragma": "no-cache"]).source == .revalidated)
    }

    @Test("qualified no-cache: the listed fields are not stored, the rest is served")
    func qualifiedNoCache() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([
            ("Cache-Control", "no-cache=\"a, B\", max-age=60"), ("a", "1"), ("b", "2"), ("c", "3"),
        ])
        _ = try await send(cache, origin)
        let hit = try await send(cache, origin)
        #expect(hit.source == .cache)
        #expect(hit.headers["a"] == nil)
        #expect(hit.headers["b"] == nil)
        #expect(hit.headers["c"] == "3")
    }
}
