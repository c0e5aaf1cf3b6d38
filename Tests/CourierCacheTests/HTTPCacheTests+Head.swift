import Courier
import CourierPrimitives
import Foundation
import Testing

@testable import CourierCache

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a `200` to a `HEAD` does to the stored `GET` response (RFC 9111 §4.3.5).
extension HTTPCacheTests {
    /// A `HEAD` answer, and whether it describes the stored response (`ETag: "x"`, 2 bytes).
    static let headAnswers: [(fields: [(String, String)], updates: Bool)] = [
        (
            [
                ("ETag", "\"x\""), ("Content-Length", "2"), ("Cache-Control", "max-age=1000"),
                ("Template-A", "2"),
            ], true
        ),
        ([("Cache-Control", "max-age=1000"), ("Template-A", "2")], true),
        ([("ETag", "\"y\""), ("Cache-Control", "max-age=1000"), ("Template-A", "2")], false),
        (
            [
                ("ETag", "\"x\""), ("Content-Length", "5"), ("Cache-Control", "max-age=1000"),
                ("Template-A", "2"),
            ], false
        ),
        ([("Last-Modified", "Wed, 01 Jan 2020 00:00:00 GMT"), ("Cache-Control", "max-age=1000")], false),
    ]

    @Test(
        "a 200 to a HEAD updates the stored GET response when its validators and length match, else removes it",
        arguments: headAnswers.indices)
    func headUpdatesStoredResponse(index: Int) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (fields, updates) = Self.headAnswers[index]
        let cache = try cache()
        let clock = self.clock
        let origin = Origin { request in
            let date = ("Date", Self.httpDate(clock.now))
            if request.httpMethod == "HEAD" {
                return TransportResponse(status: 200, headers: HTTPHeaders(fields + [date]), url: request.url)
            }
            return TransportResponse(
                status: 200,
                headers: HTTPHeaders([
                    ("Cache-Control", "max-age=10"), ("ETag", "\"x\""), ("Content-Length", "2"), date,
                    ("Template-A", "1"),
                ]),
                body: .data(Data("v1".utf8)), url: request.url)
        }
        _ = try await send(cache, origin)
        clock.advance(20)
        let head = try await send(cache, origin, "HEAD")
        #expect(head.source == .network)
        #expect(head.headers["Template-A"] == fields.first { $0.0 == "Template-A" }?.1)
        let get = try await send(cache, origin)
        if updates {
            #expect(get.source == .cache, "the HEAD's max-age made it fresh")
            #expect(get.headers["Template-A"] == "2")
            #expect(get.headers["Content-Length"] == "2")
            #expect(get.body.data == Data("v1".utf8))
            #expect(origin.count == 2)
        } else {
            #expect(get.source == .network)
            #expect(get.headers["Template-A"] == "1")
            #expect(
                origin.last?.value(forHTTPHeaderField: "If-None-Match") == nil, "it was removed, not kept")
        }
    }

    @Test("a HEAD answered with another status than 200 leaves the stored GET response alone")
    func headErrorLeavesStoredResponse() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let clock = self.clock
        let origin = Origin { request in
            let date = ("Date", Self.httpDate(clock.now))
            if request.httpMethod == "HEAD" {
                return TransportResponse(
                    status: 410, headers: HTTPHeaders([("Cache-Control", "max-age=1000"), date]),
                    url: request.url)
            }
            return TransportResponse(
                status: 200,
                headers: HTTPHeaders([("Cache-Control", "max-age=10"), ("ETag", "\"x\""), date]),
                body: .data(Data("v1".utf8)), url: request.url)
        }
        _ = try await send(cache, origin)
        clock.advance(20)
        #expect(try await send(cache, origin, "HEAD").status == 410)
        let get = try await send(cache, origin)
        #expect(get.source == .network)
        #expect(
            origin.last?.value(forHTTPHeaderField: "If-None-Match") == "\"x\"", "still stored, still stale")
    }
}
