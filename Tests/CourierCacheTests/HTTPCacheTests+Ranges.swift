import Courier
import Foundation
import Testing

@testable import CourierCache

/// `Range` requests answered from stored responses (RFC 9111 §3.4, RFC 9110 §14).
extension HTTPCacheTests {
    /// A range of the stored `0123456789`, and the `206` it gives: body and `Content-Range`.
    static let satisfiable: [(range: String, body: String, contentRange: String)] = [
        ("bytes=0-1", "01", "bytes 0-1/10"),
        ("bytes=3-", "3456789", "bytes 3-9/10"),
        ("bytes=-3", "789", "bytes 7-9/10"),
        ("bytes=8-100", "89", "bytes 8-9/10"),
        ("bytes=-100", "0123456789", "bytes 0-9/10"),
        ("bytes=9-9", "9", "bytes 9-9/10"),
        ("Bytes=2-4", "234", "bytes 2-4/10"),
    ]

    func rangeOrigin(etag: String = "\"r\"") -> Origin {
        origin(
            [("Cache-Control", "max-age=60"), ("ETag", etag), ("A", "1"), ("Content-Length", "10")],
            body: "0123456789")
    }

    @Test("a single range is answered from a stored complete 200", arguments: satisfiable)
    func rangeFromComplete(range: String, body: String, contentRange: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = rangeOrigin()
        _ = try await send(cache, origin)
        let partial = try await send(cache, origin, headers: ["Range": range])
        #expect(partial.source == .cache)
        #expect(partial.status == 206)
        #expect(String(decoding: partial.body.data, as: UTF8.self) == body)
        #expect(partial.headers["Content-Range"] == contentRange)
        #expect(partial.headers["Content-Length"] == String(body.utf8.count))
        #expect(partial.headers["A"] == "1", "the stored fields are kept")
        #expect(origin.count == 1)
        #expect(try await send(cache, origin).body.data == Data("0123456789".utf8), "the 200 is intact")
    }

    @Test(
        "an unsatisfiable range is a 416 with the length",
        arguments: ["bytes=10-", "bytes=-0", "bytes=12-20"])
    func unsatisfiableRange(range: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = rangeOrigin()
        _ = try await send(cache, origin)
        let refused = try await send(cache, origin, headers: ["Range": range])
        #expect(refused.status == 416)
        #expect(refused.source == .cache)
        #expect(refused.headers["Content-Range"] == "bytes */10")
        #expect(refused.body.data.isEmpty)
        #expect(origin.count == 1)
    }

    @Test(
        "several ranges, another unit or a malformed range go to the server",
        arguments: [
            "bytes=0-1,3-4", "items=0-1", "bytes = 2-4", "bytes=5-2", "bytes=x-", "bytes=", "bytes=--1",
        ])
    func rangeToTheServer(range: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = rangeOrigin()
        _ = try await send(cache, origin)
        _ = try await send(cache, origin, headers: ["Range": range])
        #expect(origin.count == 2)
        #expect(origin.last?.value(forHTTPHeaderField: "Range") == range)
    }

    /// `If-Range` against the stored `ETag: "r"` / `Last-Modified`: a match gives the range, any
    /// other value the whole stored response (RFC 9110 §13.1.5).
    static let ifRange: [(value: String, partial: Bool)] = [
        ("\"r\"", true),
        ("\"other\"", false),
        ("W/\"r\"", false),
        ("Sat, 01 Jan 2000 00:00:00 GMT", true),
        ("Sat, 01 Jan 2000 00:00:01 GMT", false),
        ("not a date", false),
    ]

    @Test(
        "If-Range: a matching strong validator gives the range, anything else the full 200",
        arguments: ifRange)
    func ifRangeFromComplete(value: String, partial: Bool) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin(
            [
                ("Cache-Control", "max-age=60"), ("ETag", "\"r\""),
                ("Last-Modified", "Sat, 01 Jan 2000 00:00:00 GMT"),
            ],
            body: "0123456789")
        _ = try await send(cache, origin)
        let response = try await send(cache, origin, headers: ["Range": "bytes=0-1", "If-Range": value])
        #expect(response.source == .cache)
        #expect(response.status == (partial ? 206 : 200))
        #expect(String(decoding: response.body.data, as: UTF8.self) == (partial ? "01" : "0123456789"))
        #expect(origin.count == 1)
    }

    @Test("If-Range with a weak stored ETag never matches")
    func ifRangeWeakStored() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = rangeOrigin(etag: "W/\"r\"")
        _ = try await send(cache, origin)
        let response = try await send(cache, origin, headers: ["Range": "bytes=0-1", "If-Range": "W/\"r\""])
        #expect(response.status == 200)
        #expect(response.body.data == Data("0123456789".utf8))
    }

    /// An origin that answers a `Range: bytes=-5` with the last five bytes of `0123456789`.
    func partialOrigin() -> Origin {
        let clock = self.clock
        return Origin { request in
            let date = Self.httpDate(clock.now)
            guard request.value(forHTTPHeaderField: "Range") != nil else {
                return TransportResponse(
                    status: 200, headers: ["Cache-Control": "max-age=60", "Date": date],
                    body: .data(Data("0123456789".utf8)))
            }
            return TransportResponse(
                status: 206,
                headers: ["Cache-Control": "max-age=60", "Content-Range": "bytes 5-9/10", "Date": date],
                body: .data(Data("56789".utf8)))
        }
    }

    @Test("a stored 206 answers the ranges it covers, never a request for the whole")
    func storedPartial() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = partialOrigin()
        #expect(try await send(cache, origin, headers: ["Range": "bytes=-5"]).status == 206)
        for (range, body, contentRange) in [
            ("bytes=-5", "56789", "bytes 5-9/10"), ("bytes=6-8", "678", "bytes 6-8/10"),
            ("bytes=6-", "6789", "bytes 6-9/10"), ("bytes=-1", "9", "bytes 9-9/10"),
        ] {
            let hit = try await send(cache, origin, headers: ["Range": range])
            #expect(hit.source == .cache, "\(range)")
            #expect(hit.status == 206)
            #expect(String(decoding: hit.body.data, as: UTF8.self) == body, "\(range)")
            #expect(hit.headers["Content-Range"] == contentRange)
        }
        #expect(origin.count == 1)
        _ = try await send(cache, origin, headers: ["Range": "bytes=0-1"])
        #expect(origin.count == 2, "bytes 0-1 are not stored")
        let whole = try await send(cache, origin)
        #expect(whole.status == 200)
        #expect(whole.body.data == Data("0123456789".utf8))
        #expect(origin.count == 3, "a partial response never answers a request for the whole")
        #expect(try await send(cache, origin, headers: ["Range": "bytes=0-1"]).source == .cache)
    }

    @Test("a range of a stale stored response goes to the server")
    func staleRange() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = rangeOrigin()
        _ = try await send(cache, origin)
        clock.advance(120)
        _ = try await send(cache, origin, headers: ["Range": "bytes=0-1"])
        #expect(origin.count == 2)
        #expect(origin.last?.value(forHTTPHeaderField: "Range") == "bytes=0-1")
    }

    @Test("a range asked for as a stream is read from the stored file as the caller reads")
    func rangeAsAStream() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = rangeOrigin()
        _ = try await send(cache, origin)
        var request = TransportRequest(url: Self.url, headers: ["Range": "bytes=2-4"])
        request.options.delivery = .streamed
        let response = try await cache.intercept(
            request, context: InterceptorContext(originalRequest: request)
        ) {
            try await origin.next($0)
        }
        #expect(response.status == 206)
        #expect(response.source == .cache)
        guard case .stream(let body) = response.body else {
            Issue.record("not a stream: \(response.body)")
            return
        }
        #expect(try await body.collect(upTo: 100) == Data("234".utf8))
    }
}
