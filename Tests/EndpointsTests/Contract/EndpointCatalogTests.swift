import Endpoints
import Foundation
import Testing

@Suite("EndpointCatalog (courier call)")
struct EndpointCatalogTests {
    @Test("every operation has exactly one catalog entry")
    func coversContract() {
        #expect(EndpointCatalog.entries.map(\.id) == Contract.operations.map(\.id))
        #expect(EndpointCatalog.listing.split(separator: "\n").count == Contract.operations.count)
    }

    @Test("arguments build the matching case")
    func builds() throws {
        let page = try EndpointCatalog.make("posts.page", arguments: ["pageNumber": "2", "size": "3"])
        #expect(page.operationID == "posts.page")
        #expect(page.path == "/posts")
        let feed = try EndpointCatalog.make("posts.feed", arguments: ["userId": "u-000001"])
        #expect(feed.path == "/users/u-000001/feed")
    }

    @Test("unknown endpoints and bad arguments are explained")
    func errors() {
        let unknown = #expect(throws: EndpointCatalog.CatalogError.self) {
            try EndpointCatalog.make("posts.nope", arguments: [:])
        }
        #expect(unknown?.description.contains("courier call --list") == true)
        let missing = #expect(throws: EndpointCatalog.CatalogError.self) {
            try EndpointCatalog.make("posts.page", arguments: [:])
        }
        #expect(missing?.description == "--pageNumber is required")
        let notNumber = #expect(throws: EndpointCatalog.CatalogError.self) {
            try EndpointCatalog.make("posts.page", arguments: ["pageNumber": "one"])
        }
        #expect(notNumber?.description.contains("integer") == true)
        let extra = #expect(throws: EndpointCatalog.CatalogError.self) {
            try EndpointCatalog.make("tweets.all", arguments: ["x": "1"])
        }
        #expect(extra?.description.contains("--x") == true)
    }
}
