import CourierPrimitives
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One event-loop thread: a poller, its connections, timers, and an inbox for work from other threads.
///
/// Everything except ``execute(_:)`` runs on the loop's own thread.
// unchecked Sendable: mutable state is confined to the loop thread; only `inbox` (`Locked`) and the
// thread-safe `poller.wake()` are touched from other threads.
final class EventLoop: @unchecked Sendable {
    let index: Int
    let context: HTTPServerContext
    let poller: any Poller
    private let inbox = Locked(Inbox())

    /// Work handed to the loop by other threads. Once `closed`, the poller's descriptors are gone
    /// (and their numbers may belong to another socket), so nothing may be queued or woken.
    private struct Inbox {
        var tasks: [@Sendable () -> Void] = []
        var closed = false
    }
    private var timers = TimerHeap()
    private var connections: [Int32: Connection] = [:]
    private var listenFD: Int32 = -1
    private var stopping = false
    private var stopDeadline: UInt64 = 0
    private let finished = DispatchSemaphore(value: 0)
    private var nextSweep: UInt64 = 0
    private let sweepInterval: UInt64
    /// Hands an accepted socket to a loop; set before the thread starts (loop 0 only).
    var distribute: ((Int32, String) -> Void)?
    /// A read buffer shared by this loop's connections.
    let scratch: UnsafeMutableRawBufferPointer
    var dateCache = HTTPDateCache()
    /// Small body files this loop has served, kept while unchanged.
    var fileCache = FileBodyCache()
    /// How many reads brought bytes on this loop's connections: a body file checked when this was n is
    /// fresh for every request read by the nth read or earlier.
    private(set) var readsCompleted: UInt64 = 0
    /// Connections with a readiness event of the current poll, answered once all are read.
    private var eventful: [Connection] = []

    init(index: Int, context: HTTPServerContext) throws {
        self.index = index
        self.context = context
        self.poller =
            try context.configuration.makePoller?() ?? context.configuration.pollerBackend.makePoller()
        self.scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
        let configuration = context.configuration
        let shortest = min(
            configuration.idleTimeout.nanoseconds, configuration.requestTimeout.nanoseconds,
            configuration.writeTimeout.nanoseconds, configuration.responseTimeout.nanoseconds)
        sweepInterval = max(5_000_000, min(1_000_000_000, shortest / 4))
    }

    deinit {
        scratch.deallocate()
    }

    /// Makes this loop accept connections on `fd` (before the thread starts).
    /// - Throws: ``SocketSystem/Failure`` when the poller refuses the socket.
    func adoptListener(_ fd: Int32) throws(SocketSystem.Failure) {
        try poller.add(fd, read: true, write: false)
        listenFD = fd
    }

    /// Runs `task` on the loop thread soon; callable from any thread.
    /// Returns false, without running `task`, once the loop has exited.
    @discardableResult
    func execute(_ task: @escaping @Sendable () -> Void) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.closed else { return false }
            inbox.tasks.append(task)
            poller.wake()
            return true
        }
    }

    /// Counts a read that brought bytes, and returns its number.
    func completeRead() -> UInt64 {
        readsCompleted &+= 1
        return readsCompleted
    }

    /// Runs `action` on the loop thread after `delay`; call on the loop thread only.
    func schedule(after delay: UInt64, _ action: @escaping () -> Void) {
        timers.insert(deadline: SocketSystem.monotonicNanos() &+ delay, action: action)
    }

    /// Asks the loop to stop accepting, finish in-flight responses within `grace`, and exit.
    func requestStop(grace: UInt64) {
        execute { [self] in
            guard !stopping else { return }
            stopping = true
            stopDeadline = SocketSystem.monotonicNanos() &+ grace
            if listenFD >= 0 {
                poller.remove(listenFD)
                close(listenFD)
                listenFD = -1
            }
            for connection in Array(connections.values) { connection.beginShutdown() }
        }
    }

    /// Waits until the loop thread has exited, up to `timeout`. Any number of threads may wait: each
    /// one that got the exit signal passes it on to the next.
    func waitUntilFinished(timeout: DispatchTime) -> Bool {
        guard finished.wait(timeout: timeout) == .success else { return false }
        finished.signal()
        return true
    }

    /// Registers an accepted socket as a connection of this loop.
    func adopt(fd: Int32, address: String) {
        guard !stopping else {
            close(fd)
            return
        }
        do {
            try poller.add(fd, read: true, write: false)
        } catch {
            // Unwatched, the connection would hang: say why, once, and close it.
            let reason = "the server cannot watch this connection: \(error)"
            context.configuration.log("connection from \(address): \(reason)")
            Connection.refuse(fd, status: 500, reason: reason)
            return
        }
        connections[fd] = Connection(fd: fd, remoteAddress: address, loop: self)
    }

    /// Forgets a closed connection.
    func forget(_ fd: Int32) {
        poller.remove(fd)
        connections[fd] = nil
    }

    /// The thread body.
    func run() {
        nextSweep = SocketSystem.monotonicNanos() &+ sweepInterval
        while true {
            var now = SocketSystem.monotonicNanos()
            while let timer = timers.popDue(now: now) {
                timer.action()
                now = SocketSystem.monotonicNanos()
            }
            if now >= nextSweep {
                for connection in Array(connections.values) { connection.checkTimeouts(now: now) }
                nextSweep = now &+ sweepInterval
            }
            if stopping && (connections.isEmpty || now >= stopDeadline) { break }
            var wakeAt = nextSweep
            if let deadline = timers.earliestDeadline { wakeAt = min(wakeAt, deadline) }
            if stopping { wakeAt = min(wakeAt, stopDeadline) }
            let waitNanos = wakeAt > now ? wakeAt - now : 0
            let timeout = Int32(min(1000, (waitNanos + 999_999) / 1_000_000))
            poller.wait(timeoutMilliseconds: timeout) { event in
                if event.fd == poller.wakeFD {
                    poller.drainWake()
                    let tasks = inbox.withLock { inbox in
                        defer { inbox.tasks.removeAll() }
                        return inbox.tasks
                    }
                    for task in tasks { task() }
                } else if event.fd == listenFD {
                    acceptPending()
                } else if let connection = connections[event.fd],
                    connection.readEvent(readable: event.readable, writable: event.writable)
                {
                    eventful.append(connection)
                }
            }
            for connection in eventful { connection.finishEvent() }
            eventful.removeAll(keepingCapacity: true)
        }
        for connection in Array(connections.values) { connection.close(.abrupt) }
        connections.removeAll()
        timers.removeAll()
        if listenFD >= 0 {
            close(listenFD)
            listenFD = -1
        }
        // Run what is still queued (tasks may queue more), then close the inbox and the poller
        // together, so no other thread writes to a wake descriptor whose number was reused.
        while true {
            let tasks = inbox.withLock { inbox in
                if inbox.tasks.isEmpty {
                    inbox.closed = true
                    poller.close()
                }
                defer { inbox.tasks.removeAll() }
                return inbox.tasks
            }
            if tasks.isEmpty { break }
            for task in tasks { task() }
        }
        finished.signal()
    }

    private func acceptPending() {
        for _ in 0..<64 {
            guard let accepted = SocketSystem.accept(listenFD) else {
                let code = errno
                if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM {
                    // Out of descriptors: the listener stays readable, so stop polling it for a moment
                    // instead of spinning; pending clients wait in the backlog.
                    let listener = listenFD
                    poller.remove(listener)
                    schedule(after: 100_000_000) { [self] in
                        guard !stopping && listenFD == listener else { return }
                        do {
                            try poller.add(listener, read: true, write: false)
                        } catch {
                            context.configuration.log("no longer accepting connections: \(error)")
                        }
                    }
                }
                return
            }
            if let distribute {
                distribute(accepted.fd, accepted.address)
            } else {
                adopt(fd: accepted.fd, address: accepted.address)
            }
        }
    }
}
