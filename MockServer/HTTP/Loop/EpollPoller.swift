#if canImport(Glibc)
    import Glibc

    /// The epoll and eventfd entry points, looked up at run time: the toolchain's Glibc module map does not
    /// export `<sys/epoll.h>` or `<sys/eventfd.h>`, and this package may not add a C target for them.
    struct LinuxEpoll: @unchecked Sendable {  // unchecked: immutable C function pointers.
        typealias Create = @convention(c) (Int32) -> Int32
        typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
        typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32
        typealias EventFD = @convention(c) (UInt32, Int32) -> Int32

        let create: Create
        let control: Control
        let wait: Wait
        let eventfd: EventFD

        static let input: UInt32 = 0x001
        static let output: UInt32 = 0x004
        static let error: UInt32 = 0x008
        static let hangup: UInt32 = 0x010
        static let readHangup: UInt32 = 0x2000
        static let add: Int32 = 1
        static let delete: Int32 = 2
        static let modify: Int32 = 3
        static let closeOnExec = Int32(O_CLOEXEC)
        static let nonBlocking = Int32(O_NONBLOCK)
        /// `struct epoll_event` is packed on x86_64 (12 bytes) and naturally aligned elsewhere (16 bytes).
        #if arch(x86_64)
            static let eventStride = 12
            static let dataOffset = 4
        #else
            static let eventStride = 16
            static let dataOffset = 8
        #endif

        static let shared: LinuxEpoll? = {
            let handle = dlopen(nil, RTLD_NOW)
            guard let create = dlsym(handle, "epoll_create1"), let control = dlsym(handle, "epoll_ctl"),
                let wait = dlsym(handle, "epoll_wait"), let eventfd = dlsym(handle, "eventfd")
            else { return nil }
            return LinuxEpoll(
                create: unsafeBitCast(create, to: Create.self),
                control: unsafeBitCast(control, to: Control.self),
                wait: unsafeBitCast(wait, to: Wait.self), eventfd: unsafeBitCast(eventfd, to: EventFD.self))
        }()
    }

    /// Level-triggered readiness polling with epoll, plus an eventfd to wake the waiting thread.
    ///
    /// All calls except ``wake()`` are made on the owning loop's thread.
    final class EpollPoller: Poller {
        private let api: LinuxEpoll
        private let epollFD: Int32
        /// The descriptor whose readiness means "woken"; never reported as a connection.
        let wakeFD: Int32
        private let capacity = 256
        private let events: UnsafeMutableRawBufferPointer

        init() throws {
            guard let api = LinuxEpoll.shared else {
                throw SocketSystem.Failure(call: "dlsym(epoll)", code: ENOSYS)
            }
            self.api = api
            epollFD = api.create(LinuxEpoll.closeOnExec)
            guard epollFD >= 0 else { throw SocketSystem.Failure(call: "epoll_create1", code: errno) }
            wakeFD = api.eventfd(0, LinuxEpoll.nonBlocking | LinuxEpoll.closeOnExec)
            guard wakeFD >= 0 else {
                let code = errno
                Glibc.close(epollFD)
                throw SocketSystem.Failure(call: "eventfd", code: code)
            }
            events = UnsafeMutableRawBufferPointer.allocate(
                byteCount: capacity * LinuxEpoll.eventStride, alignment: 16)
            do {
                try add(wakeFD, read: true, write: false)
            } catch {
                // Fully initialised by now, so `deinit` frees `events`.
                Glibc.close(wakeFD)
                Glibc.close(epollFD)
                throw error
            }
        }

        deinit {
            events.deallocate()
        }

        private func control(_ operation: Int32, _ fd: Int32, read: Bool, write: Bool) -> Int32 {
            // RDHUP only while reading: once reads pause, a half-closed peer must not spin the loop.
            var mask: UInt32 = 0
            if read { mask |= LinuxEpoll.input | LinuxEpoll.readHangup }
            if write { mask |= LinuxEpoll.output }
            var event: (UInt64, UInt64) = (0, 0)
            return withUnsafeMutableBytes(of: &event) { raw in
                raw.storeBytes(of: mask, toByteOffset: 0, as: UInt32.self)
                raw.storeBytes(
                    of: UInt64(UInt32(bitPattern: fd)), toByteOffset: LinuxEpoll.dataOffset, as: UInt64.self)
                return api.control(epollFD, operation, fd, raw.baseAddress) == 0 ? 0 : errno
            }
        }

        func add(_ fd: Int32, read: Bool, write: Bool) throws(SocketSystem.Failure) {
            let code = control(LinuxEpoll.add, fd, read: read, write: write)
            if code != 0 { throw SocketSystem.Failure(call: "epoll_ctl(EPOLL_CTL_ADD)", code: code) }
        }

        func modify(_ fd: Int32, read: Bool, write: Bool) throws(SocketSystem.Failure) {
            let code = control(LinuxEpoll.modify, fd, read: read, write: write)
            if code != 0 { throw SocketSystem.Failure(call: "epoll_ctl(EPOLL_CTL_MOD)", code: code) }
        }

        func remove(_ fd: Int32) {
            // A descriptor about to be closed leaves the set when it closes; a refusal here changes nothing.
            _ = control(LinuxEpoll.delete, fd, read: false, write: false)
        }

        /// Waits up to `timeoutMilliseconds` and calls `body` for each ready descriptor.
        func wait(timeoutMilliseconds: Int32, _ body: (PollEvent) -> Void) {
            let count = api.wait(epollFD, events.baseAddress, Int32(capacity), timeoutMilliseconds)
            guard count > 0 else { return }
            for index in 0..<Int(count) {
                let base = index * LinuxEpoll.eventStride
                let flags = events.loadUnaligned(fromByteOffset: base, as: UInt32.self)
                let data = events.loadUnaligned(fromByteOffset: base + LinuxEpoll.dataOffset, as: UInt64.self)
                let problem = flags & (LinuxEpoll.error | LinuxEpoll.hangup | LinuxEpoll.readHangup) != 0
                body(
                    PollEvent(
                        fd: Int32(bitPattern: UInt32(truncatingIfNeeded: data)),
                        readable: flags & LinuxEpoll.input != 0 || problem,
                        writable: flags & LinuxEpoll.output != 0))
            }
        }

        /// Wakes the thread blocked in ``wait(timeoutMilliseconds:_:)``; callable from any thread.
        func wake() {
            var one: UInt64 = 1
            _ = Glibc.write(wakeFD, &one, 8)
        }

        /// Consumes the wake-up so the descriptor stops being readable.
        func drainWake() {
            var value: UInt64 = 0
            _ = Glibc.read(wakeFD, &value, 8)
        }

        func close() {
            Glibc.close(wakeFD)
            Glibc.close(epollFD)
        }
    }
#endif
