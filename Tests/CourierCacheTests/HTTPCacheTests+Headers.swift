import Courier
import Foundation
import Testing

@testable import CourierCache

/// Which header fields are stored and served (RFC 9111 §3.1, §3.2).
extension HTTPCacheTests {
    @Test("fields named in Connection, hop-by-hop and proxy fields are not stored")
    func connectionFieldsAreNotStored() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([
            ("Cache-Control", "max-age=60"), ("Connection", "a, B"), ("Connection", "d"), ("a", "1"),
            ("b", "2"), ("c", "3"), ("D", "4"), ("Keep-Alive", "timeout=5"), ("Proxy-Authenticate", "Basic"),
            ("Proxy-Authentication-Info", "x"), ("Proxy-Authorization", "Basic eA=="), ("TE", "trailers"),
            ("Upgrade", "h2c"), ("Proxy-Connection", "close"),
        ])
        _ = try await send(cache, origin)
        let hit = try await send(cache, origin)
        #expect(hit.source == .cache)
        #expect(hit.headers["c"] == "3")
        for name in [
            "Connection", "a", "b", "d", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authentication-Info",
            "Proxy-Authorization", "TE", "Upgrade", "Proxy-Connection",
        ] {
            #expect(hit.headers[name] == nil, "\(name) was stored")
        }
    }

    @Test("a 304's fields named in its Connection do not update the stored response")
    func connectionFieldsOfA304() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let clock = self.clock
        let origin = Origin { request in
            let date = Self.httpDate(clock.now)
            if request.value(forHTTPHeaderField: "If-None-Match") == "\"x\"" {
                return TransportResponse(
                    status: 304,
                    headers: HTTPHeaders([
                        ("ETag", "\"x\""), ("Date", date), ("Connection", "e"), ("e", "5"), ("f", "6"),
                        ("Keep-Alive", "timeout=5"),
                    ]))
            }
            return TransportResponse(
                status: 200,
                headers: HTTPHeaders([
                    ("Cache-Control", "max-age=10"), ("ETag", "\"x\""), ("Date", date), ("e", "0"),
                ]),
                body: .data(Data("v1".utf8)))
        }
        _ = try await send(cache, origin)
        clock.advance(20)
        let revalidated = try await send(cache, origin)
        #expect(revalidated.source == .revalidated)
        #expect(revalidated.headers["f"] == "6")
        #expect(revalidated.headers.values(for: "e") == ["0"], "the 304's e is connection-specific")
        #expect(revalidated.headers["Connection"] == nil)
        #expect(revalidated.headers["Keep-Alive"] == nil)
        let hit = try await send(cache, origin)
        #expect(hit.source == .cache)
        #expect(hit.headers.values(for: "e") == ["0"])
        #expect(hit.headers["f"] == "6")
    }

    @Test(
        "a 304 updates a stored 200's Content-Range, which says nothing of its body, but not the fields its body depends on",
        arguments: [
            ("Content-Range", "bytes 0-1/2", "bytes 0-1/9", "bytes 0-1/9"),
            ("Content-Encoding", "x-first", "x-second", "x-first"),
            ("Content-Length", "2", "3", "2"),
            ("Content-Type", "text/plain", "text/html", "text/html"),
        ])
    func fieldsA304Updates(name: String, stored: String, sent: String, served: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let clock = self.clock
        let origin = Origin { request in
            let date = Self.httpDate(clock.now)
            let revalidating = request.value(forHTTPHeaderField: "If-None-Match") == "\"x\""
            return TransportResponse(
                status: revalidating ? 304 : 200,
                headers: HTTPHeaders([
                    ("Cache-Control", "max-age=10"), ("ETag", "\"x\""), ("Date", date),
                    (name, revalidating ? sent : stored),
                ]),
                body: .data(revalidating ? Data() : Data("v1".utf8)))
        }
        _ = try await send(cache, origin)
        clock.advance(20)
        let revalidated = try await send(cache, origin)
        #expect(revalidated.source == .revalidated)
        #expect(revalidated.headers.values(for: name) == [served])
        #expect(revalidated.body.data == Data("v1".utf8))
        let hit = try await send(cache, origin)
        #expect(hit.source == .cache)
        #expect(hit.headers.values(for: name) == [served])
    }
}
