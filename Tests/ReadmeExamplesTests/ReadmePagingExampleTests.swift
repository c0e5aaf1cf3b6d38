import Courier
import CourierTesting
import CourierURLSession
import Foundation
import MockServer
import TestSupport
import Testing

/// The README's paging example is ReadmePagingExample.swift, verbatim; the test runs it against a
/// mock server that pages by cursor and repeats one photo across two pages.
@Suite("README paging example")
struct ReadmePagingExampleTests {
    @Test func readmeShowsTheExampleVerbatim() throws {
        #expect(try ReadmeText.showsVerbatim("ReadmePagingExample.swift"))
    }

    @Test func theFeedIsReadPageByPageWithoutRepeats() async throws {
        let pages: [String: String] = [
            "": #"{"photos":[{"id":"p3","title":"Dunes"},{"id":"p2","title":"Fjord"}],"nextCursor":"c2"}"#,
            "c2":
                #"{"photos":[{"id":"p2","title":"Fjord"},{"id":"p1","title":"Harbour"}],"nextCursor":"c3"}"#,
            "c3": #"{"photos":[],"nextCursor":null}"#,
        ]
        let handler = ClosureHandler { request in
            guard request.path == "/photos", let page = pages[request.queryValue("after") ?? ""] else {
                return nil
            }
            return .json(Data(page.utf8))
        }
        let batches = try await withMockServer(handlers: [handler]) { server in
            try await scrollFeed(
                with: NetworkManager(transport: URLSessionTransport(), baseURL: server.baseURL))
        }
        #expect(batches.map { $0.map(\.id) } == [["p3", "p2"], ["p1"]])
    }
}
