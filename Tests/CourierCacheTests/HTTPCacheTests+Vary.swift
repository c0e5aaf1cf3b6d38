import Courier
import Foundation
import Testing

@testable import CourierCache

/// `Vary`: the stored request's fields, compared after normalising, and several variants per URL.
extension HTTPCacheTests {
    /// The stored request's `Foo` lines, and a later request's, that mean the same value.
    static let sameFoo: [(stored: [String], later: [String])] = [
        (["1, 2"], ["1", "2"]),
        (["1", "2"], ["1, 2"]),
        (["1,2"], [" 1, 2 "]),
        (["1 ,2"], ["1", " 2"]),
    ]

    @Test("combined and repeated field lines are normalised before comparing", arguments: sameFoo)
    func normalisedVaryFields(stored: [String], later: [String]) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Cache-Control", "max-age=60"), ("Vary", "Foo")])
        _ = try await send(cache, origin, lines: stored.map { ("Foo", $0) })
        #expect(try await send(cache, origin, lines: later.map { ("Foo", $0) }).source == .cache)
        #expect(try await send(cache, origin, lines: [("Foo", "1")]).source == .network)
        #expect(try await send(cache, origin).source == .network, "an absent field is not an empty list")
    }

    @Test("several variants of one URL are kept, and each is served to its own request")
    func severalVariants() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = Origin { request in
            let language = request.value(forHTTPHeaderField: "Accept-Language") ?? "none"
            return TransportResponse(
                status: 200, headers: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"],
                body: .data(Data(language.utf8)))
        }
        for language in ["en", "fr", "de"] {
            #expect(try await send(cache, origin, headers: ["Accept-Language": language]).source == .network)
        }
        for language in ["en", "fr", "de", "en"] {
            let hit = try await send(cache, origin, headers: ["Accept-Language": language])
            #expect(hit.source == .cache, "\(language)")
            #expect(hit.body.data == Data(language.utf8))
        }
        #expect(origin.count == 3)
        #expect(cache.keys == [Self.key], "one URL, three variants")

        let reopened = try self.cache()
        #expect(try await send(reopened, origin, headers: ["Accept-Language": "fr"]).source == .cache)

        _ = try await send(reopened, Origin { _ in TransportResponse(status: 204) }, "PUT")
        for language in ["en", "fr", "de"] {
            let after = try await send(reopened, origin, headers: ["Accept-Language": language])
            #expect(after.source == .network, "the PUT removed every variant (\(language))")
        }
        reopened.removeResponse(for: Self.url)
        #expect(reopened.totalSize == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [".courier-index.json"])
    }

    @Test("variants count towards the size bound and are evicted least recently used first")
    func variantsAreEvicted() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache(maxBytes: 250)
        let origin = origin(
            [("Cache-Control", "max-age=60"), ("Vary", "Foo")], body: String(repeating: "x", count: 100))
        _ = try await send(cache, origin, headers: ["Foo": "1"])
        _ = try await send(cache, origin, headers: ["Foo": "2"])
        _ = try await send(cache, origin, headers: ["Foo": "1"])  // 1 is now the most recent
        _ = try await send(cache, origin, headers: ["Foo": "3"])  // evicts 2
        #expect(cache.totalSize == 200)
        #expect(try await send(cache, origin, headers: ["Foo": "1"]).source == .cache)
        #expect(try await send(cache, origin, headers: ["Foo": "3"]).source == .cache)
        #expect(try await send(cache, origin, headers: ["Foo": "2"]).source == .network)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 3, "two bodies and the index: \(files)")
    }

    @Test(
        "Vary lists with *, empty elements or repeated lines",
        arguments: [["*"], ["*, *"], [", *"], ["", "*"], ["Foo, *"], ["Foo", "*"]])
    func varyStar(lines: [String]) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = origin([("Cache-Control", "max-age=60")] + lines.map { ("Vary", $0) })
        _ = try await send(cache, origin, headers: ["Foo": "1"])
        #expect(try await send(cache, origin, headers: ["Foo": "1"]).source == .network)
    }

    static var key: String { HTTPCache.key(url) }

    @Test(
        "a request no variant matches asks with the other variants' strong ETags, and a 304 naming one serves it"
    )
    func otherVariantsValidate() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let clock = self.clock
        let origin = Origin { request in
            let abc = request.value(forHTTPHeaderField: "Abc") ?? ""
            let etag = abc == "789" ? "\"other\"" : abc == "weak" ? "W/\"weak\"" : "\"abcdef\""
            if request.value(forHTTPHeaderField: "If-None-Match")?.contains(etag) == true {
                return TransportResponse(status: 304, headers: HTTPHeaders([("ETag", etag)]))
            }
            return TransportResponse(
                status: 200,
                headers: HTTPHeaders([
                    ("Cache-Control", "max-age=60"), ("ETag", etag), ("Vary", "Abc"),
                    ("Date", Self.httpDate(clock.now)),
                ]),
                body: .data(Data("body \(abc)".utf8)), url: request.url)
        }
        _ = try await send(cache, origin, headers: ["Abc": "123"])
        let validated = try await send(cache, origin, headers: ["Abc": "456"])
        #expect(origin.last?.value(forHTTPHeaderField: "If-None-Match") == "\"abcdef\"")
        #expect(validated.source == .revalidated)
        #expect(validated.status == 200)
        #expect(validated.body.data == Data("body 123".utf8), "the server named the stored representation")

        let other = try await send(cache, origin, headers: ["Abc": "789"])
        #expect(other.source == .network)
        #expect(other.body.data == Data("body 789".utf8))
        #expect(
            try await send(cache, origin, headers: ["Abc": "789"]).source == .cache, "stored as a variant")

        _ = try await send(cache, origin, headers: ["Abc": "weak"])
        let list = try #require(origin.last?.value(forHTTPHeaderField: "If-None-Match"))
        #expect(
            Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) == [
                "\"abcdef\"", "\"other\"",
            ])
        _ = try await send(cache, origin, headers: ["Abc": "none"])
        #expect(
            origin.last?.value(forHTTPHeaderField: "If-None-Match")?.contains("W/") == false,
            "never a weak one")
        #expect(
            try await send(cache, origin, headers: ["Abc": "456"], lines: [("Authorization", "Bearer b")])
                .source
                == .network)
        #expect(
            origin.last?.value(forHTTPHeaderField: "If-None-Match") == nil,
            "another user's variants are not offered")
    }

    @Test(
        "a 304 that names none of the offered variants is not handed over: the request goes again, unconditional"
    )
    func unmatched304() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let origin = Origin { request in
            if request.value(forHTTPHeaderField: "If-None-Match") != nil {
                return TransportResponse(status: 304, headers: HTTPHeaders([("ETag", "\"unknown\"")]))
            }
            return TransportResponse(
                status: 200,
                headers: HTTPHeaders([("Cache-Control", "max-age=60"), ("ETag", "\"a\""), ("Vary", "Abc")]),
                body: .data(Data("v1".utf8)), url: request.url)
        }
        _ = try await send(cache, origin, headers: ["Abc": "1"])
        let response = try await send(cache, origin, headers: ["Abc": "2"])
        #expect(response.status == 200)
        #expect(response.source == .network)
        #expect(origin.count == 3)
        #expect(origin.last?.value(forHTTPHeaderField: "If-None-Match") == nil)
    }
}
