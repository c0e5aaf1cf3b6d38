import Foundation

/// One range of posts by page number: posts whose `pageNumber` is in
/// `pageNumber ..< pageNumber + size`, in ascending page number.
public struct PostsPage: Codable, Sendable, Hashable {
    /// The posts in the range.
    public var items: [Post]
    /// The first page number asked for.
    public var pageNumber: Int
    /// How many page numbers the range spans.
    public var size: Int
    /// The page number to ask for next, or `nil` when no post lies beyond this range.
    public var nextPageNumber: Int?

    /// Creates a page.
    public init(items: [Post], pageNumber: Int, size: Int, nextPageNumber: Int?) {
        self.items = items
        self.pageNumber = pageNumber
        self.size = size
        self.nextPageNumber = nextPageNumber
    }
}

/// One batch of a cursor-paged list: newest first, continue with `nextCursor`.
public struct CursorPage<Item: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    /// The items, newest first.
    public var items: [Item]
    /// The opaque cursor to pass as `after` for the next batch; `nil` at the end.
    public var nextCursor: String?

    /// Creates a batch.
    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

/// One batch of newest-first keyset paging: the latest N, then the N before a key.
public struct KeysetPage<Item: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    /// The items, newest first.
    public var items: [Item]
    /// The key to pass as `before` for the next (older) batch; `nil` once the oldest was returned.
    public var nextKey: String?

    /// Creates a batch.
    public init(items: [Item], nextKey: String?) {
        self.items = items
        self.nextKey = nextKey
    }
}
