import Foundation

/// Pages of items for infinite scrolling, as an `AsyncSequence`.
///
/// It works over any paging style that hands back a continuation token: page numbers,
/// an opaque cursor or a newest-first key. Items already returned are never returned again
/// (items are compared by `id`), a page that would be empty after that is skipped, and the
/// sequence ends cleanly once the server has no more, or hands back a token it gave before. `refresh()` starts over from the
/// first page, for pull-to-refresh. Calls are served one at a time, in order; a caller whose
/// task is cancelled while it waits for its turn leaves the queue at once with
/// `CancellationError`.
///
/// ```swift
/// struct Page: Decodable { var items: [Note]; var nextCursor: String? }
/// let notes = Paginator<Note> { cursor in
///     let url = URL(string: "notes" + (cursor.map { "?after=\($0)" } ?? ""), relativeTo: baseURL)!
///     let page = try await manager.send(URLRequest(url: url), as: Page.self)
///     return (page.value.items, page.value.nextCursor)
/// }
/// var shown: [Note.ID] = []
/// for try await batch in notes { shown += batch.map(\.id) }
/// ```
public actor Paginator<Item: Identifiable & Sendable>: AsyncSequence where Item.ID: Sendable {
    public typealias Element = [Item]

    /// Fetches one page and the token for the next, `nil` at the end.
    private let fetch: @Sendable (_ token: String?) async throws -> (items: [Item], next: String?)
    private var token: String?
    private var finished = false
    private var seen: Set<Item.ID> = []
    /// Tokens already followed since the start: a server that hands one back again is going round in
    /// a circle (a static stub with a `next` cursor), and following it would never end.
    private var followed: Set<String> = []
    private var busy = false
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextWaiterID: UInt64 = 0
    /// How many pages were fetched since the start or the last refresh.
    public private(set) var pagesFetched = 0

    /// Creates a paginator.
    /// - Parameter fetch: fetches the page for a token (`nil` for the first page).
    public init(
        fetch: @escaping @Sendable (_ token: String?) async throws -> (items: [Item], next: String?)
    ) {
        self.fetch = fetch
    }

    /// The next page of new items, or `nil` once the end was reached.
    /// - Throws: what the fetch throws, or `CancellationError` when the task is cancelled while
    ///   waiting for an earlier call; the position is kept, so calling again retries.
    public func nextPage() async throws -> [Item]? {
        try await acquire()
        defer { release() }
        while !finished {
            let page = try await fetch(token)
            pagesFetched += 1
            token = page.next
            finished = page.next.map { !followed.insert($0).inserted } ?? true
            let fresh = page.items.filter { seen.insert($0.id).inserted }
            if !fresh.isEmpty { return fresh }
            if page.items.isEmpty { finished = true }
        }
        return nil
    }

    /// Starts over from the first page, forgetting which items were returned. A refresh whose
    /// task is cancelled while it waits for an earlier call changes nothing.
    public func refresh() async {
        do { try await acquire() } catch { return }
        defer { release() }
        token = nil
        finished = false
        seen = []
        followed = []
        pagesFetched = 0
    }

    /// Whether the end was reached.
    public var isFinished: Bool { finished }

    /// Whether calls are queued behind the one being served (for tests).
    package var hasWaiters: Bool { !waiters.isEmpty }

    private func acquire() async throws {
        guard busy else {
            busy = true
            return
        }
        try Task.checkCancellation()
        let id = nextWaiterID
        nextWaiterID += 1
        try await withTaskCancellationHandler {
            // Appended before this job suspends, so `leave` (a later job on this actor) finds it.
            try await withCheckedThrowingContinuation { waiters.append((id, $0)) }
        } onCancel: {
            Task { await self.leave(id) }
        }
    }

    /// A cancelled waiter leaves the queue, unless `release` already gave it its turn.
    private func leave(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }

    private func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            // Resumed exactly once: removed from the queue here, or in `leave`.
            waiters.removeFirst().continuation.resume()
        }
    }

    public nonisolated func makeAsyncIterator() -> Iterator { Iterator(paginator: self) }

    /// Iterates the pages by calling `nextPage()`.
    public struct Iterator: AsyncIteratorProtocol {
        let paginator: Paginator

        /// The next page, or `nil` at the end.
        /// - Throws: what the fetch throws.
        public mutating func next() async throws -> [Item]? { try await paginator.nextPage() }
    }
}
