import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// The delegate queue of a `URLSessionTransport` on FoundationNetworking, which holds the
    /// session back while its callbacks are behind.
    ///
    /// FoundationNetworking reads the socket as fast as it can and hands every body chunk to
    /// the delegate queue with `addOperation`, without waiting: when the delegate is slower than
    /// the network (a busy machine, a slow disk), the queued chunks grow without bound. It has
    /// no way to pause a data task either: `suspend()` does not stop the delivery of a body in
    /// progress. So the queue itself applies the backpressure: when
    /// `limit` callbacks are waiting, `addOperation` blocks its caller, which is the session's
    /// own work queue (libcurl's write callback), until the delegate has caught up. libcurl then
    /// stops reading, and TCP flow control slows the server.
    ///
    /// This holds back more than the one transfer: FoundationNetworking's sessions all run on
    /// one shared work queue, so every URLSession in the process waits while a delegate is 16
    /// callbacks behind (measured: a second session's 1 KiB GET waited out a 3 s hold of the
    /// first one's queue). The wait lasts only as long as the delegate needs to write the queued
    /// chunks; a stream's consumer can sleep for any time, which is why streams do not wait here
    /// (see `URLSessionTransport.send`). An operation that the queue's own thread adds never waits (it
    /// would wait for itself), and the delegate's callbacks never wait for the work queue (a
    /// task is cancelled from another thread; see `Transfer.fail`), so the two cannot wait for
    /// each other.
    final class BoundedDelegateQueue: OperationQueue, @unchecked Sendable {
        // @unchecked Sendable: `pending` is only touched with `condition` locked.

        /// Callbacks that may wait before `addOperation` blocks: with libcurl's largest
        /// receive buffer (512 KiB) about 8 MiB of body.
        static let defaultLimit = 16

        private let limit: Int
        private let condition = NSCondition()
        private var pending = 0

        /// How many delegate queues are holding the shared work queue now, since when, and for
        /// how long in all before that.
        private static let holds = Locked<(count: Int, since: ContinuousClock.Instant?, total: Duration)>(
            (0, nil, .zero))

        /// How long, in all, FoundationNetworking's shared work queue has been stalled by
        /// delegate queues that had fallen behind: the part of each hold beyond `holdGrace`. No
        /// transfer in the process moves during such a stall, so the idle timeout does not count
        /// it. Short holds, one after another (a download to a slow disk), are not counted: the
        /// work queue reads every socket between them, so a transfer that got nothing then was
        /// idle.
        static var heldTime: Duration {
            holds.withLock { holds in
                holds.total + (holds.since.map { stall(ContinuousClock.now - $0) } ?? .zero)
            }
        }

        /// How long a hold lasts before it counts as a stall.
        static let holdGrace = Duration.seconds(1)

        private static func stall(_ hold: Duration) -> Duration { max(.zero, hold - holdGrace) }

        init(limit: Int = defaultLimit) {
            self.limit = max(1, limit)
            super.init()
        }

        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            condition.lock()
            if OperationQueue.current !== self, pending >= limit {
                Self.holds.withLock { holds in
                    if holds.count == 0 { holds.since = ContinuousClock.now }
                    holds.count += 1
                }
                while pending >= limit { condition.wait() }
                Self.holds.withLock { holds in
                    holds.count -= 1
                    if holds.count == 0, let since = holds.since {
                        holds.total += Self.stall(ContinuousClock.now - since)
                        holds.since = nil
                    }
                }
            }
            pending += 1
            condition.unlock()
            super.addOperation { [self] in
                block()
                condition.lock()
                pending -= 1
                condition.broadcast()
                condition.unlock()
            }
        }
    }
#endif
