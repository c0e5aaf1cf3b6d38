/// One readiness notification from the poller.
struct PollEvent {
    var fd: Int32
    var readable: Bool
    var writable: Bool
}

/// Level-triggered readiness polling for one event loop, with a descriptor that wakes the waiting thread.
///
/// All calls except ``wake()`` are made on the owning loop's thread.
protocol Poller: AnyObject {
    /// The descriptor whose readiness means "woken"; never reported as a connection.
    var wakeFD: Int32 { get }
    /// Starts watching `fd`.
    /// - Throws: ``SocketSystem/Failure`` when the system refuses (epoll_ctl: out of memory, too many
    ///   watches).
    func add(_ fd: Int32, read: Bool, write: Bool) throws(SocketSystem.Failure)
    /// Changes what `fd` is watched for.
    /// - Throws: ``SocketSystem/Failure`` when the system refuses.
    func modify(_ fd: Int32, read: Bool, write: Bool) throws(SocketSystem.Failure)
    /// Stops watching `fd` (before it is closed).
    func remove(_ fd: Int32)
    /// Waits up to `timeoutMilliseconds` and calls `body` for each ready descriptor.
    func wait(timeoutMilliseconds: Int32, _ body: (PollEvent) -> Void)
    /// Wakes the thread blocked in ``wait(timeoutMilliseconds:_:)``; callable from any thread.
    func wake()
    /// Consumes the wake-ups so the wake descriptor stops being readable.
    func drainWake()
    /// Closes the poller's own descriptors.
    func close()
}

/// Which readiness API the event loops wait with.
enum PollerBackend: Sendable, CaseIterable, CustomStringConvertible {
    #if canImport(Glibc)
        /// Linux's epoll: the default there.
        case epoll
    #endif
    /// POSIX `poll(2)`: the same code on every platform, and the default where epoll is missing.
    case poll

    /// The backend a server uses unless told otherwise.
    static var platformDefault: PollerBackend {
        #if canImport(Glibc)
            .epoll
        #else
            .poll
        #endif
    }

    var description: String {
        switch self {
        #if canImport(Glibc)
            case .epoll: "epoll"
        #endif
        case .poll: "poll"
        }
    }

    /// A new poller of this kind.
    /// - Throws: ``SocketSystem/Failure`` when the system refuses the descriptors it needs.
    func makePoller() throws -> any Poller {
        switch self {
        #if canImport(Glibc)
            case .epoll: try EpollPoller()
        #endif
        case .poll: try PortablePoller()
        }
    }
}
