import Courier
import Foundation
import Testing

/// `TransportRequest` shares its fields between copies until one changes: each copy must
/// still behave as a value of its own.
@Suite struct TransportRequestValueTests {
    @Test func aChangedCopyLeavesTheOriginalAsItWas() throws {
        let url = try #require(URL(string: "http://example.com/a"))
        var original = TransportRequest(method: .post, url: url, body: .data(Data("one".utf8)))
        original.headers.add(name: "X-A", value: "1")
        original.options.maxRedirects = 3

        var copy = original
        copy.method = .put
        copy.url = try #require(URL(string: "http://example.com/b"))
        copy.headers.add(name: "X-B", value: "2")
        copy.headers.replaceOrAdd(name: "X-A", value: "changed")
        copy.body = .empty
        copy.options.delivery = .streamed
        copy.options.maxRedirects = 0
        copy.progress = { _ in }

        #expect(original.method == .post)
        #expect(original.url.path == "/a")
        #expect(original.headers["X-A"] == "1")
        #expect(original.headers["X-B"] == nil)
        if case .data(let data) = original.body {
            #expect(data == Data("one".utf8))
        } else {
            Issue.record("body")
        }
        #expect(original.options.delivery == .whole)
        #expect(original.options.maxRedirects == 3)
        #expect(original.progress == nil)

        #expect(copy.method == .put)
        #expect(copy.headers.count == 2 && copy.headers["X-A"] == "changed")
        #expect(copy.options.maxRedirects == 0)
    }

    @Test func changingTheOriginalLeavesAnEarlierCopyAsItWas() throws {
        var original = TransportRequest(url: try #require(URL(string: "http://example.com/a")))
        let copy = original
        original.headers.add(name: "X-A", value: "1")
        original.options.idleTimeout = .seconds(1)
        #expect(copy.headers.isEmpty)
        #expect(copy.options.idleTimeout == nil)
        #expect(original.headers.count == 1)
    }
}
