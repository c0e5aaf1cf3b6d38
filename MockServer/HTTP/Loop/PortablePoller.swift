#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Level-triggered readiness polling with POSIX `poll(2)`, plus a pipe to wake the waiting thread.
///
/// The same code runs on Linux and Apple platforms; the Linux tests select it explicitly so that it is
/// exercised where epoll is the default. All calls except ``wake()`` are made on the owning loop's thread.
final class PortablePoller: Poller {
    /// The read end of the wake pipe.
    let wakeFD: Int32
    private let wakeWriteFD: Int32
    /// The watched descriptors, in the layout `poll` takes.
    private var entries: [pollfd] = []
    /// Where each watched descriptor sits in `entries`.
    private var slots: [Int32: Int] = [:]
    /// The events of one wait, collected before any is handled: handling one may add or remove entries.
    private var ready: [PollEvent] = []

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SocketSystem.Failure(call: "pipe", code: errno) }
        wakeFD = ends[0]
        wakeWriteFD = ends[1]
        SocketSystem.setNonBlocking(wakeFD)
        SocketSystem.setNonBlocking(wakeWriteFD)
        add(wakeFD, read: true, write: false)
    }

    private static func mask(read: Bool, write: Bool) -> Int16 {
        (read ? Int16(POLLIN) : 0) | (write ? Int16(POLLOUT) : 0)
    }

    func add(_ fd: Int32, read: Bool, write: Bool) {
        if let slot = slots[fd] {
            entries[slot].events = Self.mask(read: read, write: write)
            return
        }
        slots[fd] = entries.count
        entries.append(pollfd(fd: fd, events: Self.mask(read: read, write: write), revents: 0))
    }

    func modify(_ fd: Int32, read: Bool, write: Bool) {
        guard let slot = slots[fd] else { return }
        entries[slot].events = Self.mask(read: read, write: write)
    }

    func remove(_ fd: Int32) {
        guard let slot = slots.removeValue(forKey: fd) else { return }
        let last = entries.count - 1
        if slot != last {
            entries[slot] = entries[last]
            slots[entries[slot].fd] = slot
        }
        entries.removeLast()
    }

    func wait(timeoutMilliseconds: Int32, _ body: (PollEvent) -> Void) {
        let count = entries.withUnsafeMutableBufferPointer { list in
            poll(list.baseAddress, nfds_t(list.count), timeoutMilliseconds)
        }
        guard count > 0 else { return }
        ready.removeAll(keepingCapacity: true)
        // Errors and hang-ups are reported whatever was asked for; they read as "readable" so the owner
        // reads, sees the end or the error, and closes (as the epoll backend reports them).
        let problems = Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL)
        for entry in entries where entry.revents != 0 {
            ready.append(
                PollEvent(
                    fd: entry.fd, readable: entry.revents & (Int16(POLLIN) | problems) != 0,
                    writable: entry.revents & Int16(POLLOUT) != 0))
        }
        for event in ready { body(event) }
    }

    func wake() {
        var one: UInt8 = 1
        _ = write(wakeWriteFD, &one, 1)
    }

    func drainWake() {
        var scratch: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        while withUnsafeMutableBytes(of: &scratch, { read(wakeFD, $0.baseAddress, $0.count) }) > 0 {}
    }

    func close() {
        SocketSystem.closeDescriptor(wakeFD)
        SocketSystem.closeDescriptor(wakeWriteFD)
    }
}
