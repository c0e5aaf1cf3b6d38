import CourierPrimitives
import Foundation

/// A bounded log of received requests (admin routes excluded); the oldest are dropped and counted.
final class RequestJournal: Sendable {
    /// One logged request and how it was answered.
    struct Entry: Sendable {
        var uuid: UUID
        var request: ServerRequest
        var loggedAt: Date
        var wasMatched: Bool
        var stubID: String?
        var status: Int
        /// Whether the body was cut to ``RequestJournal/maxBodyBytes`` or was streamed to disk and not kept.
        var bodyTruncated = false

        /// The entry's id as WireMock shows it (a lowercase UUID).
        var id: String { uuid.uuidString.lowercased() }
    }

    private struct State {
        var ring: [Entry] = []
        var start = 0
        var dropped = 0
        var sequence: UInt64 = 0
    }

    let limit: Int
    private let state = Locked(State())
    /// Random high bits for entry ids; the low bits count, so ids are unique without a random draw per request.
    private let idPrefix = UInt64.random(in: 0...UInt64.max)

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    var isDisabled: Bool { limit == 0 }

    /// The most body bytes kept per entry, so a full journal of uploads stays small.
    static let maxBodyBytes = 256 * 1024

    /// Logs a request (bodies over ``maxBodyBytes`` are cut, and the entry says so).
    func record(_ request: ServerRequest, wasMatched: Bool, stubID: String?, status: Int) {
        guard limit > 0 else { return }
        var request = request
        var bodyTruncated = request.bodyFile != nil
        if request.body.count > Self.maxBodyBytes {
            request.body = Data(request.body.prefix(Self.maxBodyBytes))
            bodyTruncated = true
        }
        // Set only when there is one: setting it works the body's memo out again.
        if request.bodyFile != nil { request.bodyFile = nil }
        let loggedAt = Date()
        // The entry it replaces is freed after the lock is released, at the end of this function: the
        // other loops wait less.
        let replaced = state.withLock { state -> Entry? in
            state.sequence &+= 1
            var entry = Entry(
                uuid: Self.uuid(prefix: idPrefix, sequence: state.sequence), request: request,
                loggedAt: loggedAt,
                wasMatched: wasMatched, stubID: stubID, status: status, bodyTruncated: bodyTruncated)
            if state.ring.count < limit {
                state.ring.append(entry)
                return nil
            }
            let oldest = state.start
            swap(&entry, &state.ring[oldest])
            state.start = (oldest + 1) % limit
            state.dropped += 1
            return entry
        }
        withExtendedLifetime(replaced) {}
    }

    /// The entries, oldest first, and how many were dropped since the last clear.
    func snapshot() -> (entries: [Entry], dropped: Int) {
        state.withLock { state in
            (Array(state.ring[state.start...] + state.ring[..<state.start]), state.dropped)
        }
    }

    func clear() {
        state.withLock { state in
            let sequence = state.sequence
            state = State()
            state.sequence = sequence
        }
    }

    private static func uuid(prefix: UInt64, sequence: UInt64) -> UUID {
        var raw = (prefix.bigEndian, sequence.bigEndian)
        return withUnsafeMutableBytes(of: &raw) { bytes in
            bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4 layout
            bytes[8] = (bytes[8] & 0x3F) | 0x80
            return UUID(uuid: bytes.load(as: uuid_t.self))
        }
    }
}
