import CCurlShim
import Courier
import Foundation

extension CurlMultiLoop {
    /// The multi handle's bookkeeping, kept by whichever thread drives the multi handle (under
    /// the loop's engine lock).
    struct Engine {
        /// Transfers in the multi handle, by identity (for removals) and by easy handle (for
        /// libcurl's messages). A removal is never looked up by handle: the pool hands a
        /// finished transfer's handle to the next one, and a late remove of the first must
        /// not find the second. A queued removal retains its transfer, so no other live
        /// transfer can have its identifier.
        var active: [ObjectIdentifier: CurlTransfer] = [:]
        var byHandle: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        /// The origins with transfers running or waiting.
        var origins: [CurlRequestPlan.Origin: OriginQueue] = [:]
        var published = (active: 0, statistics: CurlTransport.Statistics())
        var statistics = CurlTransport.Statistics()
        var finished: [(CurlTransfer, CURLcode)] = []
        /// Set when a transfer entered the multi handle after libcurl last ran the due ones.
        var addedLate = false
        /// When each waiting transfer with a total timeout runs out of time, earliest first. An
        /// entry whose transfer no longer waits is stale: dropped when it reaches the front, or
        /// all at once when stale entries are half of them, so that a transfer that leaves the
        /// queue costs no search (with many waiting, a search per request would be the loop's
        /// largest cost).
        private var deadlines: [WaitingDeadline] = []
        private var staleDeadlines = 0
        /// When the loop thread's wait ends, while it waits (or is about to): a caller who
        /// drives the multi handle meanwhile and needs an earlier turn wakes it.
        var waitEnds: ContinuousClock.Instant?
        /// Set once the loop has ended every transfer: nobody drives the multi handle again.
        var closed = false
        /// When the running transfers' idle timeouts are checked next (nil: none is running).
        var nextIdleCheck: ContinuousClock.Instant?

        private struct WaitingDeadline {
            let deadline: ContinuousClock.Instant
            let transfer: CurlTransfer
        }

        /// `transfer` left its origin's queue (for a place in the multi handle, or cancelled).
        mutating func stoppedWaiting(_ transfer: CurlTransfer) {
            transfer.isWaiting = false
            if transfer.waitingSince != nil { staleDeadlines += 1 }
        }

        /// Records when a waiting transfer runs out of time: appended, as the deadlines of
        /// transfers with one timeout arrive in order; a sooner one (a shorter timeout) goes
        /// after the entries not later than it.
        mutating func noteDeadline(_ deadline: ContinuousClock.Instant, of transfer: CurlTransfer) {
            let entry = WaitingDeadline(deadline: deadline, transfer: transfer)
            guard let last = deadlines.last, last.deadline > deadline else {
                deadlines.append(entry)
                return
            }
            var low = 0
            var high = deadlines.count
            while low < high {
                let middle = (low + high) / 2
                if deadlines[middle].deadline > deadline {
                    high = middle
                } else {
                    low = middle + 1
                }
            }
            deadlines.insert(entry, at: low)
        }

        /// The waiting transfers whose deadline is `now` or past, earliest first, taken off the
        /// list with the stale entries before them.
        mutating func takeExpired(at now: ContinuousClock.Instant) -> [CurlTransfer] {
            guard !deadlines.isEmpty else { return [] }
            if staleDeadlines * 2 > deadlines.count {
                deadlines.removeAll { !$0.transfer.isWaiting }
                staleDeadlines = 0
            }
            var expired: [CurlTransfer] = []
            var dropped = 0
            for entry in deadlines {
                if !entry.transfer.isWaiting {
                    staleDeadlines -= 1
                } else if entry.deadline <= now {
                    expired.append(entry.transfer)
                } else {
                    break
                }
                dropped += 1
            }
            deadlines.removeFirst(dropped)
            return expired
        }

        /// How long the loop thread may wait for the engine's own reasons: a second at most, less
        /// when a waiting transfer's deadline or the idle check comes sooner.
        func waitMilliseconds(at now: ContinuousClock.Instant) -> Int32 {
            func until(_ instant: ContinuousClock.Instant?) -> Int32 {
                guard let instant else { return 1000 }
                let left = ((instant - now) / .milliseconds(1)).rounded(.up)
                return Int32(max(0, min(1000, left)))
            }
            return min(until(deadlines.first?.deadline), until(nextIdleCheck))
        }
    }
}
