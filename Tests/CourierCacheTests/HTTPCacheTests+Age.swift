import Courier
import Foundation
import Testing

@testable import CourierCache

/// How the `Age` a response arrives with counts towards its age (RFC 9111 §5.1).
extension HTTPCacheTests {
    /// `Age` lines as the origin sends them (one line with a list, or two lines, the form
    /// FoundationNetworking joins into one), and whether the response is still fresh then.
    static let ageCases: [(lines: [String], fresh: Bool)] = [
        (["7200, 0"], false),
        (["7200", "0"], false),
        (["0, 7200"], true),
        (["0", "7200"], true),
        (["0, 0"], true),
        (["3000, 3000"], true),
        (["3000", "3000"], true),
        ([" 7200 ,0"], false),
    ]

    @Test("the first value of a list-valued Age counts, on one line or several", arguments: ageCases)
    func listValuedAge(lines: [String], fresh: Bool) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Cache-Control", "max-age=3600")] + lines.map { ("Age", $0) })
        _ = try await send(cache, origin)
        let second = try await send(cache, origin)
        #expect(second.source == (fresh ? .cache : .network), "Age \(lines)")
        #expect(origin.count == (fresh ? 1 : 2), "Age \(lines)")
    }

    @Test("the Age served from the cache includes the Age the response arrived with")
    func servedAgeGrows() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Cache-Control", "max-age=3600"), ("Age", "30, 900")])
        _ = try await send(cache, origin)
        clock.advance(5)
        let hit = try await send(cache, origin)
        #expect(hit.source == .cache)
        #expect(hit.headers.values(for: "Age") == ["35"])
    }
}
