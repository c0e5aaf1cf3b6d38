import Foundation
import Synchronization

/// A bounded log of received requests (admin routes excluded); the oldest are dropped and counted.
final class RequestJournal: Sendable {
    /// One logged request and how it was answered.
    struct Entry: Sendable {
        var id: String
        var request: ServerRequest
        var loggedAt: Date
        var wasMatched: Bool
        var stubID: String?
        var status: Int
    }

    private struct State {
        var ring: [Entry] = []
        var start = 0
        var dropped = 0
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    var isDisabled: Bool { limit == 0 }

    func record(_ entry: Entry) {
        guard limit > 0 else { return }
        state.withLock { state in
            if state.ring.count < limit {
                state.ring.append(entry)
            } else {
                state.ring[state.start] = entry
                state.start = (state.start + 1) % limit
                state.dropped += 1
            }
        }
    }

    /// The entries, oldest first, and how many were dropped since the last clear.
    func snapshot() -> (entries: [Entry], dropped: Int) {
        state.withLock { state in
            (Array(state.ring[state.start...] + state.ring[..<state.start]), state.dropped)
        }
    }

    func clear() {
        state.withLock { $0 = State() }
    }
}
