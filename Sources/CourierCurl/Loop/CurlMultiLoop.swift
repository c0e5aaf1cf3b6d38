import CCurlShim
import Courier
import CourierPrimitives
import Foundation
import Synchronization

/// A moment in a transfer's life that a test can hold open to make a race happen on
/// purpose. Production code passes no hook.
enum CurlLoopEvent: Sendable {
    /// `CurlTransport.send` started the transfer and is about to submit it (caller's thread).
    case submitting(CurlTransfer)
    /// `submit` handed the transfer to the loop: queued it, or put it in the multi handle at
    /// once while the loop thread slept (caller's thread).
    case queued(CurlTransfer)
    /// The loop took these removals off its queue (loop thread).
    case drained(removals: [CurlTransfer])
    /// The loop resumed these transfers that libcurl finished, and has not yet drained its
    /// queues again (the thread driving the multi handle, holding the engine's lock).
    case finished([CurlTransfer])
}

/// Called at each `CurlLoopEvent`; it may block to hold a window open.
typealias CurlLoopHook = @Sendable (CurlLoopEvent) -> Void

/// One curl multi handle and the thread that waits for its sockets.
///
/// The multi handle is driven through libcurl's socket interface: libcurl names the sockets
/// to watch (`ccurl_reactor`) and says how long it may wait (`curl_multi_timeout`), and the
/// loop thread waits for them outside libcurl (epoll), then calls `curl_multi_socket_action`
/// for what is ready. Whoever
/// drives the multi handle holds `engine`'s lock: the loop thread for a turn, or, while the
/// loop thread waits, a caller submitting a transfer. That caller puts its transfer in the
/// multi handle and starts it itself (`submit`), so a request sent while the loop sleeps costs
/// no wake-up of the loop thread: the loop wakes for the response only. Other threads reach
/// the loop thread otherwise only through `shared`'s queues and the reactor's wake-up, which
/// they call while holding `shared` and only while the loop has not stopped.
///
/// The loop is also a task executor: a task that prefers it runs its jobs on the loop
/// thread between two turns, so that its requests are submitted and its continuations
/// resumed without waking another thread.
///
/// Transfers wait in a first-in, first-out queue per origin and enter the multi handle only
/// while the origin has fewer than `maxConnectionsPerHost` of them there (more when it speaks
/// HTTP/2): libcurl's own queue of transfers waiting for a connection is not ordered.
///
/// `@unchecked Sendable` because: `multi`, `share` and the engine state are used only by the
/// thread holding `engine`'s lock; all other shared state is behind `shared`'s lock.
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
        /// Jobs of tasks that prefer this loop as their executor.
        var jobs: [UnownedJob] = []
        /// The loop thread, once it runs: what it queues for itself needs no wakeup.
        var thread: pthread_t?

        /// Whether no work is queued for the loop (so a new item must wake it).
        var isEmpty: Bool { adds.isEmpty && removals.isEmpty && unpauses.isEmpty && jobs.isEmpty }
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
        var activeCount = 0
        var statistics = CurlTransport.Statistics()

        /// Whether the caller must wake the loop after queueing an item: only when the queue
        /// was empty (a non-empty one has a wakeup pending, or the loop has yet to look at it)
        /// and the caller is not the loop thread, which looks at the queue before it polls.
        var needsWakeup: Bool {
            guard isEmpty else { return false }
            guard let thread else { return true }
            return pthread_equal(thread, pthread_self()) == 0
        }
    }

    private let multi: UnsafeMutableRawPointer?
    private let share: UnsafeMutableRawPointer?
    /// The sockets libcurl asked to watch, and the loop thread's wake-up.
    private let reactor: OpaquePointer?
    private let shared: Locked<Shared>
    /// The multi handle's bookkeeping, held by whichever thread drives the multi handle.
    private let engine: Locked<Engine>
    /// Whether a caller may drive the multi handle while the loop thread waits (the reactor
    /// sees sockets added meanwhile: epoll, not poll(2)).
    private let callersMayDrive: Bool
    /// Easy handles of finished transfers, kept for the next ones.
    let handles: EasyHandlePool
    /// Tests only: see `CurlLoopEvent`.
    let hook: CurlLoopHook?
    /// Transfers of one origin in the multi handle, at most this many (0: no limit).
    private let connectionsPerOrigin: Int
    /// Waits of the loop thread that ended (`Statistics.loopWakeups`); an atomic rather than a
    /// field under `shared`, so that counting costs the loop no lock per turn.
    private let wakeups = Atomic<Int>(0)
    /// Whether the loop thread is inside its wait: a caller drives the multi handle only then,
    /// not while the loop thread runs jobs or is about to take the engine's lock for its turn.
    private let loopWaits = Atomic<Bool>(false)
    /// Whether the loop thread is inside its wait now (tests wait for it before a request that must
    /// find the loop asleep).
    var isWaiting: Bool { loopWaits.load(ordering: .acquiring) }
    /// Waits of the loop thread that ended so far, without a lock (a test hook may read it).
    var wakeupCount: Int { wakeups.load(ordering: .relaxed) }

    /// Creates the multi handle and starts the loop thread.
    /// - Parameters:
    ///   - configuration: connection limits.
    ///   - hook: tests only; called at each `CurlLoopEvent`.
    init(configuration: CurlTransport.Configuration, hook: CurlLoopHook? = nil) {
        self.hook = hook
        _ = CurlGlobal.initialized
        var multi = curl_multi_init()
        let reactor = multi.flatMap { ccurl_reactor_create($0) }
        if reactor == nil, let created = multi {
            curl_multi_cleanup(created)
            multi = nil
        }
        self.multi = multi
        self.reactor = reactor
        callersMayDrive = ccurl_reactor_allows_other_threads() != 0
        let share = curl_share_init()
        if let share {
            // Both used under the engine's lock only, so no lock callbacks are needed.
            _ = ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
            _ = ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
        }
        self.share = share
        shared = Locked(Shared(phase: multi == nil ? .stopped : .running))
        engine = Locked(Engine())
        // A transfer holds its handle from `send` on, also while it waits for a connection, so
        // the pool keeps enough idle handles for a burst, not only for the connections.
        handles = EasyHandlePool(
            capacity: max(64, configuration.maxCachedConnections),
            acceptEncoding: ContentDecoding.offered, userAgent: configuration.userAgent)
        connectionsPerOrigin = max(0, configuration.maxConnectionsPerHost)
        guard let multi else { return }
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        // Fewer cached connections than open ones would close and reopen a connection for
        // every few requests under load.
        let cached = max(configuration.maxCachedConnections, configuration.maxConnectionsPerHost)
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, cached)
        // The thread keeps the loop alive until it has freed every handle.
        let thread = Thread { self.run() }
        thread.name = "courier.curl.loop"
        thread.start()
    }

    /// Hands a started transfer to the loop. Returns false when the loop has stopped.
    ///
    /// While the loop thread waits and nothing is queued before it, the caller drives the
    /// multi handle itself: the transfer enters it (or its origin's queue) and starts here, and
    /// the loop thread is woken only if it must wake sooner than it planned. Otherwise the
    /// transfer is queued for the loop's next turn.
    func submit(_ transfer: CurlTransfer) -> Bool {
        if callersMayDrive, let multi,
            let submitted = engine.withLockIfAvailable({ state in
                submitWhileWaiting(transfer, multi: multi, state: &state)
            }), let submitted
        {
            if submitted { hook?(.queued(transfer)) }
            return submitted
        }
        let queued = shared.withLock { shared in
            guard shared.phase == .running else { return false }
            if shared.needsWakeup { wake() }
            shared.adds.append(transfer)
            return true
        }
        if queued { hook?(.queued(transfer)) }
        return queued
    }

    /// Asks the loop to let a paused streamed transfer go on.
    func unpause(_ transfer: CurlTransfer) {
        shared.withLock { shared in
            guard shared.phase == .running else { return }
            if shared.needsWakeup { wake() }
            shared.unpauses.append(transfer)
        }
    }

    /// Asks the loop to remove a transfer now (cancellation). Once the loop is stopping there is
    /// nothing to ask: it ends every transfer itself, and a removal queued then would never be
    /// drained, keeping its transfer until the transport is freed.
    func remove(_ transfer: CurlTransfer, reason: TransferAbortReason) {
        shared.withLock { shared in
            guard shared.phase == .running else { return }
            if shared.needsWakeup { wake() }
            shared.removals.append((transfer, reason))
        }
    }

    /// Queues a job of a task that prefers this loop; once the loop has stopped, the global
    /// concurrent executor runs it instead.
    /// - Returns: false when the loop has stopped and the job was not taken.
    func enqueue(job: UnownedJob) -> Bool {
        shared.withLock { shared in
            guard shared.phase != .stopped else { return false }
            if shared.needsWakeup { wake() }
            shared.jobs.append(job)
            return true
        }
    }

    /// Stops the loop: transfers in flight end with `.cancelled`, every handle is freed.
    /// Returns at once; `waitUntilStopped` waits for the end.
    func requestStop() {
        shared.withLock { shared in
            guard shared.phase == .running else { return }
            shared.phase = .stopping
            wake()
        }
    }

    /// Makes the loop thread's wait return. Called holding `shared` while the phase is not
    /// `.stopped`: the reactor is freed only after the phase became `.stopped`.
    private func wake() {
        if let reactor { ccurl_reactor_wake(reactor) }
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

    /// Whether the caller runs on the loop thread.
    var isLoopThread: Bool {
        shared.withLock { shared in shared.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Whether the loop thread has exited and freed its handles.
    var isStopped: Bool { shared.withLock { $0.phase == .stopped } }

    /// Transfers currently in the multi handle.
    var activeTransferCount: Int { shared.withLock { $0.activeCount } }

    /// Counters since the loop started.
    var statistics: CurlTransport.Statistics {
        var statistics = shared.withLock { $0.statistics }
        statistics.loopWakeups = wakeupCount
        return statistics
    }

    // MARK: Driving the multi handle (holding the engine's lock)

    /// What the loop thread does after a turn.
    private enum NextStep {
        /// Work arrived during the turn: another turn, without waiting.
        case turn
        /// Wait for the sockets, a wake-up or this many milliseconds.
        case wait(Int32)
        /// The loop has ended every transfer.
        case exit
    }

    /// Sockets the last wait found ready, with libcurl's `CURL_CSELECT_*` bits.
    private struct ReadySockets {
        static let capacity = 64
        var sockets = [curl_socket_t](repeating: 0, count: capacity)
        var events = [Int32](repeating: 0, count: capacity)
        var count = 0
    }

    private func run() {
        guard let multi, let reactor else { return }
        shared.withLock { $0.thread = pthread_self() }
        // The queues change places with these each turn, so that neither side allocates a new
        // array for every request once both have grown.
        var adds: [CurlTransfer] = []
        var spareJobs: [UnownedJob] = []
        var ready = ReadySockets()
        turns: while true {
            runJobs(&spareJobs)
            let next = engine.withLock { state in
                turn(multi: multi, ready: &ready, adds: &adds, state: &state)
            }
            switch next {
            case .turn:
                // No wait, but the sockets that became ready during the turn are taken now,
                // rather than only at the next wait.
                ready.count = Int(
                    ccurl_reactor_wait(
                        reactor, 0, &ready.sockets, &ready.events, Int32(ReadySockets.capacity)))
                continue
            case .wait(let milliseconds):
                // Outside the engine's lock: a caller may drive the multi handle meanwhile.
                loopWaits.store(true, ordering: .releasing)
                ready.count = Int(
                    ccurl_reactor_wait(
                        reactor, milliseconds, &ready.sockets, &ready.events, Int32(ReadySockets.capacity)))
                loopWaits.store(false, ordering: .releasing)
                wakeups.add(1, ordering: .relaxed)
            case .exit:
                break turns
            }
        }
        // The engine's lock is never taken inside `shared`'s (a submitting caller takes them the
        // other way round).
        let statistics = engine.withLock { $0.statistics }
        let (waiters, jobs) = shared.withLock { shared in
            shared.phase = .stopped
            shared.activeCount = 0
            shared.statistics = statistics
            defer {
                shared.exitWaiters = []
                shared.jobs = []
            }
            return (shared.exitWaiters, shared.jobs)
        }
        // Transfers submitted after the last drain cannot exist: submit refuses once
        // the phase left .running (and once the engine is closed), and the phase and the queue
        // share one lock. Pooled handles hold no share (the pool detaches it), so the order
        // here is free; the reactor goes last, since curl_multi_cleanup may report sockets.
        handles.close()
        if let share { curl_share_cleanup(share) }
        curl_multi_cleanup(multi)
        ccurl_reactor_free(reactor)
        for waiter in waiters { waiter.resume() }
        // Jobs that arrived while the loop was stopping run on the global executor.
        for job in jobs { forwardToGlobalExecutor(job) }
    }

    /// One turn of the loop thread: the queued work, then what the last wait found ready, then
    /// libcurl's finished transfers.
    private func turn(
        multi: UnsafeMutableRawPointer, ready: inout ReadySockets,
        adds: inout [CurlTransfer], state: inout Engine
    ) -> NextStep {
        state.waitEnds = nil
        let (removals, unpauses, stopping) = shared.withLock { shared in
            swap(&shared.adds, &adds)
            defer {
                shared.removals = []
                shared.unpauses = []
            }
            return (shared.removals, shared.unpauses, shared.phase != .running)
        }
        if let hook, !removals.isEmpty { hook(.drained(removals: removals.map(\.0))) }
        for transfer in adds { accept(transfer, multi: multi, state: &state) }
        adds.removeAll(keepingCapacity: true)
        for (transfer, _) in removals {
            if transfer.isWaiting {
                // Still in its origin's queue: it never reached libcurl.
                state.stoppedWaiting(transfer)
                transfer.originQueue?.waiting -= 1
                transfer.complete(result: CURLE_ABORTED_BY_CALLBACK, removedEarly: true)
                continue
            }
            // Not there: already done, or never added (see above).
            guard state.active[ObjectIdentifier(transfer)] != nil else { continue }
            endEarly(transfer, multi: multi, state: &state)
        }
        // Only a transfer still in the multi handle: a finished one's easy handle may
        // already serve another transfer.
        for transfer in unpauses where state.active[ObjectIdentifier(transfer)] != nil {
            transfer.unpause()
        }
        if stopping {
            stop(multi: multi, state: &state)
            state.closed = true
            return .exit
        }
        expireWaiting(&state)
        state.addedLate = false
        if ready.count > 0, let reactor {
            _ = ccurl_reactor_dispatch(reactor, multi, ready.sockets, ready.events, Int32(ready.count))
        }
        ready.count = 0
        runTimeouts(multi: multi)
        finishTransfers(multi: multi, state: &state)
        checkIdleTransfers(multi: multi, state: &state)
        // From here until the next turn dispatches what the wait (or the look without waiting)
        // finds, a socket libcurl closes makes that finding stale.
        if let reactor { ccurl_reactor_mark(reactor) }
        // Work queued by this thread (a resumed task's job, its next request) or by
        // another since the top of the turn: no wait, take it now.
        if state.addedLate || !shared.withLock({ $0.isEmpty }) { return .turn }
        let milliseconds = waitMilliseconds(multi: multi, state: state)
        state.waitEnds = .now + .milliseconds(milliseconds)
        return .wait(milliseconds)
    }

    /// Lets libcurl run the transfers whose timeouts are due, a transfer just added among them
    /// (adding one asks for a timeout of 0). A few rounds at most: a timeout that stays due
    /// is run by the next turn, which then does not wait.
    private func runTimeouts(multi: UnsafeMutableRawPointer) {
        var running: Int32 = 0
        var rounds = 0
        while rounds < 4, ccurl_multi_timeout_ms(multi) == 0 {
            _ = curl_multi_socket_action(multi, CURL_SOCKET_BAD, 0, &running)
            rounds += 1
        }
    }

    /// Takes libcurl's finished transfers off the multi handle and resumes their callers,
    /// after the next waiting transfers have taken their places.
    private func finishTransfers(multi: UnsafeMutableRawPointer, state: inout Engine) {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else {
                continue
            }
            // Read before removing: the message dies with curl_multi_remove_handle.
            let code = message.pointee.data.result
            guard let transfer = state.byHandle.removeValue(forKey: easy) else { continue }
            state.active[ObjectIdentifier(transfer)] = nil
            _ = curl_multi_remove_handle(multi, easy)
            var opened = 0
            _ = ccurl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &opened)
            state.statistics.transfersCompleted += 1
            state.statistics.connectionsOpened += opened
            var version = 0
            if ccurl_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version) == CURLE_OK, version != 0 {
                transfer.originQueue?.learn(multiplexed: version >= Int(CURL_HTTP_VERSION_2_0))
            }
            state.finished.append((transfer, code))
        }
        // One lock per turn, and none when nothing changed; before any caller resumes,
        // so that a caller sees the counters include its own transfer.
        if state.published.active != state.active.count || state.published.statistics != state.statistics {
            state.published = (state.active.count, state.statistics)
            let published = state.published
            shared.withLock { shared in
                shared.activeCount = published.active
                shared.statistics = published.statistics
            }
        }
        // The next waiting transfers take the places of the finished ones, in order,
        // before their callers resume (a resumed caller may submit more).
        for (transfer, _) in state.finished { left(transfer, multi: multi, state: &state) }
        for (transfer, code) in state.finished { transfer.complete(result: code) }
        if let hook, !state.finished.isEmpty { hook(.finished(state.finished.map(\.0))) }
        state.finished.removeAll(keepingCapacity: true)
    }

    /// How often the running transfers' idle timeouts are checked.
    static let idleCheckInterval = Duration.milliseconds(250)

    /// Fails the running transfers that moved no byte for their idle timeout. libcurl calls a
    /// transfer back only when its socket or its own timer says so, so a stalled transfer
    /// would never see its progress function; the loop looks at every running transfer's byte
    /// counts instead, every `idleCheckInterval`.
    private func checkIdleTransfers(multi: UnsafeMutableRawPointer, state: inout Engine) {
        guard !state.active.isEmpty else {
            state.nextIdleCheck = nil
            return
        }
        let now = ContinuousClock.now
        guard let next = state.nextIdleCheck else {
            state.nextIdleCheck = now + Self.idleCheckInterval
            return
        }
        guard now >= next else { return }
        state.nextIdleCheck = now + Self.idleCheckInterval
        // The idle failure each recorded is what its caller gets.
        for transfer in state.active.values.filter({ !$0.checkIdle(at: now) }) {
            endEarly(transfer, multi: multi, state: &state)
        }
    }

    /// Takes a transfer libcurl has not finished out of the multi handle and ends it (a cancel,
    /// an idle timeout); the first waiting transfer of its origin takes its place.
    private func endEarly(_ transfer: CurlTransfer, multi: UnsafeMutableRawPointer, state: inout Engine) {
        state.active[ObjectIdentifier(transfer)] = nil
        state.byHandle[transfer.easy] = nil
        _ = curl_multi_remove_handle(multi, transfer.easy)
        transfer.complete(result: CURLE_ABORTED_BY_CALLBACK, removedEarly: true)
        left(transfer, multi: multi, state: &state)
    }

    /// How long the loop thread may wait: a second at most, less when libcurl asked for a
    /// sooner timeout, a waiting transfer's deadline comes sooner, or the idle check is due.
    private func waitMilliseconds(multi: UnsafeMutableRawPointer, state: Engine) -> Int32 {
        let curl = ccurl_multi_timeout_ms(multi)
        let own = state.waitMilliseconds(at: .now)
        return curl < 0 ? own : min(own, Int32(clamping: curl))
    }

    /// A caller's `submit` while it holds the engine's lock and the loop thread waits: the
    /// transfer enters the multi handle, or its origin's queue, and libcurl starts it on this
    /// thread. Returns nil when the transfer must be queued instead: the loop thread is not
    /// waiting, it has transfers queued before this one (the order of submission is kept), or
    /// it is stopping.
    private func submitWhileWaiting(
        _ transfer: CurlTransfer, multi: UnsafeMutableRawPointer, state: inout Engine
    ) -> Bool? {
        // Only while the loop thread waits: between its wait and its turn it takes the queue
        // anyway, with no wake-up to save.
        guard let reactor, !state.closed, state.waitEnds != nil, loopWaits.load(ordering: .acquiring) else {
            return nil
        }
        let clear = shared.withLock { $0.phase == .running && $0.adds.isEmpty }
        guard clear else { return nil }
        state.addedLate = false
        accept(transfer, multi: multi, state: &state)
        runTimeouts(multi: multi)
        finishTransfers(multi: multi, state: &state)
        // The loop thread planned its wait before this transfer existed: wake it when it must
        // turn sooner (libcurl's timeout, a waiting transfer's deadline, a transfer that took
        // a finished one's place).
        if let ends = state.waitEnds,
            state.addedLate || .now + .milliseconds(waitMilliseconds(multi: multi, state: state)) < ends
        {
            state.waitEnds = nil
            ccurl_reactor_wake(reactor)
        }
        return true
    }

    /// Runs the jobs queued so far (jobs they queue wait for the next turn). `spare` is an empty
    /// array that changes places with the queue, and is left empty again.
    private func runJobs(_ spare: inout [UnownedJob]) {
        shared.withLock { shared in swap(&shared.jobs, &spare) }
        guard !spare.isEmpty else { return }
        runOnLoop(spare)
        spare.removeAll(keepingCapacity: true)
    }

    /// Takes a submitted transfer: ends it at once when it was cancelled between `start` and
    /// `submit` (its remove may have been drained before it arrived, and libcurl would only
    /// notice at its next callback), else puts it in the multi handle or its origin's queue.
    private func accept(_ transfer: CurlTransfer, multi: UnsafeMutableRawPointer, state: inout Engine) {
        if transfer.shouldAbort {
            transfer.complete(result: CURLE_ABORTED_BY_CALLBACK, removedEarly: true)
        } else {
            enqueueOrAdd(transfer, multi: multi, state: &state)
        }
    }

    /// Puts a submitted transfer in the multi handle, or at the back of its origin's queue
    /// when the origin has all the places it may have.
    private func enqueueOrAdd(
        _ transfer: CurlTransfer, multi: UnsafeMutableRawPointer, state: inout Engine
    ) {
        let queue: OriginQueue
        if let known = state.origins[transfer.plan.origin] {
            queue = known
        } else {
            // Idle origins are kept for the next request, unless there are many.
            if state.origins.count >= 256 { state.origins = state.origins.filter { !$0.value.isEmpty } }
            queue = OriginQueue(multiplexed: transfer.plan.mayMultiplex)
            state.origins[transfer.plan.origin] = queue
        }
        transfer.originQueue = queue
        if connectionsPerOrigin > 0, queue.waiting > 0 || queue.running >= queue.limit(connectionsPerOrigin) {
            transfer.isWaiting = true
            let total = transfer.plan.totalTimeoutMilliseconds
            transfer.waitingSince = total > 0 ? .now : nil
            if let since = transfer.waitingSince {
                state.noteDeadline(since + .milliseconds(total), of: transfer)
            }
            queue.append(transfer)
            return
        }
        if add(transfer, multi: multi, state: &state) { queue.running += 1 }
    }

    /// Ends, with `.timedOut`, the waiting transfers whose total timeout ran out while they
    /// waited for a connection (a connection may stay busy for any time: a stream, a slow
    /// download).
    private func expireWaiting(_ state: inout Engine) {
        for transfer in state.takeExpired(at: .now) {
            // Left in its origin's queue, skipped there as a cancelled one is.
            transfer.isWaiting = false
            transfer.originQueue?.waiting -= 1
            transfer.complete(result: CURLE_OPERATION_TIMEDOUT)
        }
    }

    /// A transfer of an origin left the multi handle: the first waiting ones take its place.
    private func left(_ transfer: CurlTransfer, multi: UnsafeMutableRawPointer, state: inout Engine) {
        guard let queue = transfer.originQueue else { return }
        queue.running -= 1
        while queue.running < queue.limit(connectionsPerOrigin), let next = queue.popFirst() {
            state.stoppedWaiting(next)
            if next.shouldAbort {
                next.complete(result: CURLE_ABORTED_BY_CALLBACK, removedEarly: true)
                continue
            }
            guard next.startAfterWaiting() else { continue }
            if add(next, multi: multi, state: &state) {
                queue.running += 1
                state.addedLate = true
            }
        }
    }

    /// Puts a transfer in the multi handle; returns false when libcurl refused it (the
    /// transfer has then failed).
    private func add(_ transfer: CurlTransfer, multi: UnsafeMutableRawPointer, state: inout Engine) -> Bool {
        if let share { _ = ccurl_easy_setopt_pointer(transfer.easy, CURLOPT_SHARE, share) }
        let code = curl_multi_add_handle(multi, transfer.easy)
        guard code == CURLM_OK else {
            transfer.complete(result: CURLE_FAILED_INIT)
            return false
        }
        state.active[ObjectIdentifier(transfer)] = transfer
        state.byHandle[transfer.easy] = transfer
        return true
    }

    /// Ends every transfer, running or waiting, with `.shutdown`.
    private func stop(multi: UnsafeMutableRawPointer, state: inout Engine) {
        for transfer in state.active.values {
            _ = transfer.stop(.shutdown)
            _ = curl_multi_remove_handle(multi, transfer.easy)
            transfer.complete(result: CURLE_ABORTED_BY_CALLBACK, removedEarly: true)
        }
        state.active.removeAll()
        state.byHandle.removeAll()
        for queue in state.origins.values {
            while let transfer = queue.popFirst() {
                transfer.isWaiting = false
                _ = transfer.stop(.shutdown)
                transfer.complete(result: CURLE_ABORTED_BY_CALLBACK, removedEarly: true)
            }
        }
        state.origins.removeAll()
    }

    deinit {
        // Only reached when the thread never started (no multi handle) or has exited,
        // which freed both handles; free a share handle that never got a loop.
        if multi == nil, let share { curl_share_cleanup(share) }
    }
}
