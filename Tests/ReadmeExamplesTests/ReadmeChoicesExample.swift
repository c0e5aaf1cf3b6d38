import Courier
import CourierContract
import CourierJSON
import Foundation

struct Hit: Codable, Sendable, Equatable {
    var pageTitle: String
    var updatedAt: Date
}

struct SearchResult: Codable, Sendable, Equatable {
    var hits: [Hit]
}

/// A service that answers in snake_case with dates in seconds, and answers 404 with an
/// empty result when nothing matches.
enum SearchAPI: API {
    static let decoder: CourierJSONDecoder = {
        var decoder = CourierJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()

    static func search(_ text: String) -> Endpoint<SearchResult> {
        endpoint(.get, "/search", "Pages matching a text", errors: [404]) { Query("q", text) }
            .validated(
                by: Validation(
                    acceptableStatusCodes: [200, 404], acceptableContentTypes: ["application/json"])
            )
            .decoded(with: decoder)
    }

    static var samples: [any EndpointDescribing] { [search("courier")] }
}
