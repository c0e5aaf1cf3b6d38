import Courier
import CourierContract
import Foundation

struct Photo: Codable, Sendable, Identifiable {
    var id: String
    var title: String
}

struct PhotoPage: Codable, Sendable {
    var photos: [Photo]
    var nextCursor: String?
}

enum PhotosAPI: API {
    static func feed(after cursor: String?) -> Endpoint<PhotoPage> {
        endpoint(.get, "/photos", "A page of the photo feed, newest first") {
            Query("after", cursor, "The cursor of the page before; none for the first page")
        }
    }

    static var samples: [any EndpointDescribing] { [feed(after: nil)] }
}

/// The feed as infinite scrolling reads it: one batch of new photos per page, until the server
/// has no more. A photo the server repeats on a later page is not shown twice.
func scrollFeed(with manager: NetworkManager) async throws -> [[Photo]] {
    let feed = Paginator<Photo> { cursor in
        let page = try await manager.send(PhotosAPI.feed(after: cursor)).value
        return (page.photos, page.nextCursor)
    }
    var batches: [[Photo]] = []
    for try await batch in feed { batches.append(batch) }
    return batches
}
