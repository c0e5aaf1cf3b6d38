import CCurlShim
import Courier
import CourierPrimitives
import Foundation

/// A moment in a transfer's life that a test can hold open to make a race happen on
/// purpose. Production code passes no hook.
enum CurlLoopEvent: Sendable {
    /// `CurlTransport.send` started the transfer and is about to submit it (caller's thread).
    case submitting(CurlTransfer)
    /// `submit` queued the transfer for the loop (caller's thread).
    case queued(CurlTransfer)
    /// The loop took these removals off its queue (loop thread).
    case drained(removals: [CurlTransfer])
    /// The loop resumed these transfers that libcurl finished, and has not yet drained its
    /// queues again (loop thread).
    case finished([CurlTransfer])
}

/// Called at each `CurlLoopEvent`; it may block to hold a window open.
typealias CurlLoopHook = @Sendable (CurlLoopEvent) -> Void

/// One curl multi handle and the one thread that drives it.
///
/// The thread loops on `curl_multi_perform` / `curl_multi_info_read` /
/// `curl_multi_poll`. Other threads never touch the multi handle except through
/// `curl_multi_wakeup` (documented thread-safe), which they call while holding `shared`
/// and only while the loop has not stopped, so it never runs on a freed handle.
///
/// `@unchecked Sendable` because: `multi` and `share` are used by the loop thread only
/// (plus `curl_multi_wakeup` as above); all other shared state is behind the lock.
final class CurlMultiLoop: @unchecked Sendable {
    private enum Phase {
        case running
        case stopping
        case stopped
    }

    private struct Shared {
        var phase = Phase.running
        var adds: [CurlTransfer] = []
        var removals: [(CurlTransfer, TransferAbortReason)] = []
        /// Paused streamed transfers whose consumer caught up.
        var unpauses: [CurlTransfer] = []

        /// Whether no work is queued for the loop (so a new item must wake it).
        var isEmpty: Bool { adds.isEmpty && removals.isEmpty && unpauses.isEmpty }
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
        var activeCount = 0
        var statistics = CurlTransport.Statistics()
    }

    private let multi: UnsafeMutableRawPointer?
    private let share: UnsafeMutableRawPointer?
    private let shared: Locked<Shared>
    /// Easy handles of finished transfers, kept for the next ones.
    let handles: EasyHandlePool
    /// Tests only: see `CurlLoopEvent`.
    let hook: CurlLoopHook?

    /// Creates the multi handle and starts the loop thread.
    /// - Parameters:
    ///   - configuration: connection limits.
    ///   - hook: tests only; called at each `CurlLoopEvent`.
    init(configuration: CurlTransport.Configuration, hook: CurlLoopHook? = nil) {
        self.hook = hook
        _ = CurlGlobal.initialized
        let multi = curl_multi_init()
        self.multi = multi
        let share = curl_share_init()
        if let share {
            // Both used from the loop thread only, so no lock callbacks are needed.
            _ = ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
            _ = ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
        }
        self.share = share
        shared = Locked(Shared(phase: multi == nil ? .stopped : .running))
        handles = EasyHandlePool(capacity: max(16, configuration.maxCachedConnections))
        guard let multi else { return }
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.maxCachedConnections)
        // The thread keeps the loop alive until it has freed every handle.
        let thread = Thread { self.run() }
        thread.name = "courier.curl.loop"
        thread.start()
    }

    /// Hands a started transfer to the loop. Returns false when the loop has stopped.
    func submit(_ transfer: CurlTransfer) -> Bool {
        let queued = shared.withLock { shared in
            guard shared.phase == .running, let multi else { return false }
            // A queue that was already non-empty has a wakeup pending: the loop empties both
            // queues together, and whoever made them non-empty woke it.
            let wake = shared.isEmpty
            shared.adds.append(transfer)
            if wake { _ = curl_multi_wakeup(multi) }
            return true
        }
        if queued { hook?(.queued(transfer)) }
        return queued
    }

    /// Asks the loop to let a paused streamed transfer go on.
    func unpause(_ transfer: CurlTransfer) {
        shared.withLock { shared in
            guard shared.phase == .running, let multi else { return }
            let wake = shared.isEmpty
            shared.unpauses.append(transfer)
            if wake { _ = curl_multi_wakeup(multi) }
        }
    }

    /// Asks the loop to remove a transfer now (cancellation).
    func remove(_ transfer: CurlTransfer, reason: TransferAbortReason) {
        shared.withLock { shared in
            guard shared.phase != .stopped, let multi else { return }
            let wake = shared.isEmpty
            shared.removals.append((transfer, reason))
            if wake { _ = curl_multi_wakeup(multi) }
        }
    }

    /// Stops the loop: transfers in flight end with `.cancelled`, every handle is freed.
    /// Returns at once; `waitUntilStopped` waits for the end.
    func requestStop() {
        shared.withLock { shared in
            guard shared.phase == .running, let multi else { return }
            shared.phase = .stopping
            _ = curl_multi_wakeup(multi)
        }
    }

    /// Waits (without blocking a thread) until the loop has freed every handle.
    func waitUntilStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let stopped = shared.withLock { shared in
                if shared.phase == .stopped { return true }
                shared.exitWaiters.append(continuation)
                return false
            }
            if stopped { continuation.resume() }
        }
    }

    /// Whether the loop thread has exited and freed its handles.
    var isStopped: Bool { shared.withLock { $0.phase == .stopped } }

    /// Transfers currently in the multi handle.
    var activeTransferCount: Int { shared.withLock { $0.activeCount } }

    /// Counters since the loop started.
    var statistics: CurlTransport.Statistics { shared.withLock { $0.statistics } }

    // MARK: Loop thread

    private func run() {
        guard let multi else { return }
        // Transfers in the multi handle, by identity (for removals) and by easy handle (for
        // libcurl's messages). A removal is never looked up by handle: the pool hands a
        // finished transfer's handle to the next one, and a late remove of the first must
        // not find the second. A queued removal retains its transfer, so no other live
        // transfer can have its identifier.
        var active: [ObjectIdentifier: CurlTransfer] = [:]
        var byHandle: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        var published = (active: 0, statistics: CurlTransport.Statistics())
        var statistics = CurlTransport.Statistics()
        var finished: [(CurlTransfer, CURLcode)] = []
        while true {
            let (adds, removals, unpauses, stopping) = shared.withLock { shared in
                defer {
                    shared.adds = []
                    shared.removals = []
                    shared.unpauses = []
                }
                return (shared.adds, shared.removals, shared.unpauses, shared.phase != .running)
            }
            if let hook, !removals.isEmpty { hook(.drained(removals: removals.map(\.0))) }
            for transfer in adds {
                if transfer.shouldAbort {
                    // Cancelled between `start` and `submit`: its remove may have been drained
                    // before this add, and libcurl would only notice at its next callback.
                    transfer.complete(result: CURLE_ABORTED_BY_CALLBACK, removedEarly: true)
                    continue
                }
                if let share { _ = ccurl_easy_setopt_pointer(transfer.easy, CURLOPT_SHARE, share) }
                let code = curl_multi_add_handle(multi, transfer.easy)
                guard code == CURLM_OK else {
                    transfer.complete(result: CURLE_FAILED_INIT)
                    continue
                }
                active[ObjectIdentifier(transfer)] = transfer
                byHandle[transfer.easy] = transfer
            }
            for (transfer, _) in removals {
                // Not there: already done, or never added (see above).
                guard active.removeValue(forKey: ObjectIdentifier(transfer)) != nil else { continue }
                byHandle[transfer.easy] = nil
                _ = curl_multi_remove_handle(multi, transfer.easy)
                transfer.complete(result: CURLE_ABORTED_BY_CALLBACK, removedEarly: true)
            }
            // Only a transfer still in the multi handle: a finished one's easy handle may
            // already serve another transfer.
            for transfer in unpauses where active[ObjectIdentifier(transfer)] != nil { transfer.unpause() }
            if stopping {
                for transfer in active.values {
                    _ = transfer.stop(.shutdown)
                    _ = curl_multi_remove_handle(multi, transfer.easy)
                    transfer.complete(result: CURLE_ABORTED_BY_CALLBACK, removedEarly: true)
                }
                active.removeAll()
                byHandle.removeAll()
                break
            }
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else {
                    continue
                }
                // Read before removing: the message dies with curl_multi_remove_handle.
                let code = message.pointee.data.result
                guard let transfer = byHandle.removeValue(forKey: easy) else { continue }
                active[ObjectIdentifier(transfer)] = nil
                _ = curl_multi_remove_handle(multi, easy)
                var opened = 0
                _ = ccurl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &opened)
                statistics.transfersCompleted += 1
                statistics.connectionsOpened += opened
                finished.append((transfer, code))
            }
            // One lock per turn, and none when nothing changed; before any caller resumes,
            // so that a caller sees the counters include its own transfer.
            if published.active != active.count || published.statistics != statistics {
                published = (active.count, statistics)
                shared.withLock { shared in
                    shared.activeCount = published.active
                    shared.statistics = published.statistics
                }
            }
            for (transfer, code) in finished { transfer.complete(result: code) }
            if let hook, !finished.isEmpty { hook(.finished(finished.map(\.0))) }
            finished.removeAll(keepingCapacity: true)
            _ = curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        let waiters = shared.withLock { shared in
            shared.phase = .stopped
            shared.activeCount = 0
            shared.statistics = statistics
            defer { shared.exitWaiters = [] }
            return shared.exitWaiters
        }
        // Transfers submitted after the last drain cannot exist: submit refuses once
        // the phase left .running, and the phase and the queue share one lock.
        // Pooled handles hold no share (the pool detaches it), so the order here is free.
        handles.close()
        if let share { curl_share_cleanup(share) }
        curl_multi_cleanup(multi)
        for waiter in waiters { waiter.resume() }
    }

    deinit {
        // Only reached when the thread never started (no multi handle) or has exited,
        // which freed both handles; free a share handle that never got a loop.
        if multi == nil, let share { curl_share_cleanup(share) }
    }
}

/// One-time libcurl initialisation.
enum CurlGlobal {
    /// Runs `curl_global_init` once per process (Swift's lazy globals are thread-safe).
    static let initialized: Bool = ccurl_global_init_all() == CURLE_OK
}
