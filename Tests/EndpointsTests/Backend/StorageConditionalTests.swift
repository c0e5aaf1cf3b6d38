import Foundation
import MockServer
import SocialBackend
import Testing

/// `/storage/` answers conditional requests as RFC 9110 §13.1 has it, and as nginx does for a static
/// file: `If-None-Match` compares weakly (so `W/"…"` of the stored tag is a 304), `If-Match` strongly
/// (so a weak tag never matches: 412), and `If-Match` is evaluated first.
@Suite("Conditional requests to storage")
struct StorageConditionalTests {
    static let path = "/storage/videos/seed-001.mp4"
    static let etag = #""seed-1""#

    private func status(_ backend: SocialBackend, method: String = "GET", _ headers: [(String, String)])
        -> Int?
    {
        backend.handle(
            ServerRequest(
                method: method, target: Self.path,
                headers: ServerHeaders(headers.map { (name: $0.0, value: $0.1) })))?
            .status
    }

    @Test(arguments: [
        (#""seed-1""#, 304),
        (#"W/"seed-1""#, 304),
        (#"W/"other", W/"seed-1""#, 304),
        (#""other",   "seed-1""#, 304),
        ("*", 304),
        (#""other""#, 200),
        (#"W/"other""#, 200),
        (#""seed-1"x"#, 200),
        (#"seed-1"#, 200),
    ])
    func ifNoneMatchComparesWeakly(field: String, expected: Int) throws {
        let backend = try SocialBackend(seedCount: 1)
        defer { backend.removeStorage() }
        #expect(status(backend, [("If-None-Match", field)]) == expected)
        #expect(status(backend, method: "HEAD", [("If-None-Match", field)]) == expected)
    }

    @Test(arguments: [
        (#""seed-1""#, 200),
        (#""other", "seed-1""#, 200),
        ("*", 200),
        (#"W/"seed-1""#, 412),
        (#""other""#, 412),
    ])
    func ifMatchComparesStrongly(field: String, expected: Int) throws {
        let backend = try SocialBackend(seedCount: 1)
        defer { backend.removeStorage() }
        #expect(status(backend, [("If-Match", field)]) == expected)
    }

    /// A failed `If-Match` wins over an `If-None-Match` that would give a 304.
    @Test func ifMatchIsEvaluatedFirst() throws {
        let backend = try SocialBackend(seedCount: 1)
        defer { backend.removeStorage() }
        #expect(status(backend, [("If-Match", #""other""#), ("If-None-Match", Self.etag)]) == 412)
        #expect(status(backend, [("If-Match", Self.etag), ("If-None-Match", Self.etag)]) == 304)
    }
}
