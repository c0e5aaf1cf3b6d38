import Courier
import Foundation
import Testing

@testable import CourierCache

/// HTTP-dates in `Expires`, `Date` and `Last-Modified` (RFC 9110 §5.6.7, RFC 9111 §5.3).
extension HTTPCacheTests {
    /// Not HTTP-dates, though a lenient parser reads most of them as a date in 2050.
    static let invalidExpires = [
        "Thu, 18 Aug 2050 2:01:18 GMT",  // a one-digit hour
        "Thu, 18-Aug-2050 02:01:18 GMT",  // dashes with a four-digit year
        "Thu, 18  Aug  2050 02:01:18 GMT",  // several spaces
        "Thu 18 Aug 2050 02:01:18 GMT",  // no comma
        "Thu, 18 Aug 2050 02.01.18 GMT",  // periods in the time
        "Thu, 18 Aug 2050 02:01:18 UTC",
        "Thu, 18 Aug 2050 02:01:18 AEST",
        "Thu, 18 Aug 50 02:01:18 GMT",  // a two-digit year in the IMF form
        "Thu, 31 Feb 2050 02:01:18 GMT",  // no such day
        "Thu, 18 Aug 2050 24:01:18 GMT",
        "Thu, 18 Aug 2050 02:01:18 GMT trailing",
        " Thu, 18 Aug 2050 02:01:18",
        "Thu, 18 Aug 2050",
        "0",
        "",
    ]

    @Test("an invalid Expires is already stale", arguments: invalidExpires)
    func invalidExpiresIsStale(expires: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Expires", expires)])
        _ = try await send(cache, origin)
        #expect(try await send(cache, origin).source == .network, "Expires: \(expires)")
        #expect(origin.count == 2)
    }

    @Test("two Expires lines are invalid, even when each is a valid future date")
    func twoExpiresLines() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([
            ("Expires", "Thu, 18 Aug 2050 02:01:18 GMT"), ("Expires", "Thu, 18 Aug 2050 02:01:19 GMT"),
        ])
        _ = try await send(cache, origin)
        #expect(try await send(cache, origin).source == .network)
    }

    /// The three forms RFC 9110 allows, with names in any case; the clock is in January 2027.
    static let validExpires = [
        "Thu, 18 Aug 2050 02:01:18 GMT",
        "Thursday, 18-Aug-50 02:01:18 GMT",  // RFC 850
        "Thu Aug 18 02:01:18 2050",  // asctime
        "Mon Aug  8 02:01:18 2050",  // asctime, a one-digit day
        "THU, 18 AUG 2050 02:01:18 gmt",
        "Tue, 19 Jan 2038 14:14:08 GMT",
        "Sun, 21 Nov 2286 04:46:39 GMT",
    ]

    @Test("a future Expires in any valid form keeps the response fresh", arguments: validExpires)
    func validExpiresIsFresh(expires: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Expires", expires)])
        _ = try await send(cache, origin)
        #expect(try await send(cache, origin).source == .cache, "Expires: \(expires)")
    }

    @Test("a malformed Last-Modified gives no heuristic freshness")
    func malformedLastModified() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Last-Modified", "Sat, 01-Jan-2000 00:00:00 GMT")])
        _ = try await send(cache, origin)
        #expect(try await send(cache, origin).source != .cache)
        #expect(origin.count == 2)
    }
}
