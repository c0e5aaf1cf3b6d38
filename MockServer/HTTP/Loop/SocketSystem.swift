#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin, platform-neutral wrappers over the POSIX socket calls the server uses.
enum SocketSystem {
    #if canImport(Darwin)
        static let streamType = SOCK_STREAM
        static let sendFlags: Int32 = 0
    #else
        static let streamType = Int32(SOCK_STREAM.rawValue)
        static let sendFlags = Int32(MSG_NOSIGNAL)
    #endif

    /// A socket error with the call that failed and `errno`'s description.
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code))) (errno \(code))" }
    }

    /// Creates a non-blocking listening socket bound to `host:port`; returns the socket and the real port.
    static func listen(host: String, port: Int, backlog: Int) throws -> (fd: Int32, port: Int) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamType
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Failure(call: "getaddrinfo(\(host))", code: status == EAI_SYSTEM ? errno : EINVAL)
        }
        defer { freeaddrinfo(list) }
        var lastError = Failure(call: "bind", code: EADDRNOTAVAIL)
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            cursor = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, streamType, 0)
            guard fd >= 0 else {
                lastError = Failure(call: "socket", code: errno)
                continue
            }
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
                lastError = Failure(call: "bind(\(host):\(port))", code: errno)
                close(fd)
                continue
            }
            guard Glibc_listen(fd, Int32(backlog)) == 0 else {
                lastError = Failure(call: "listen", code: errno)
                close(fd)
                continue
            }
            setNonBlocking(fd)
            return (fd, boundPort(fd))
        }
        throw lastError
    }

    private static func Glibc_listen(_ fd: Int32, _ backlog: Int32) -> Int32 {
        #if canImport(Darwin)
            return Darwin.listen(fd, backlog)
        #elseif canImport(Musl)
            return Musl.listen(fd, backlog)
        #else
            return Glibc.listen(fd, backlog)
        #endif
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// The local port a socket is bound to.
    static func boundPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return port(of: storage)
    }

    /// Accepts one pending connection as a non-blocking socket; nil when none is pending.
    static func accept(_ listener: Int32) -> (fd: Int32, address: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                #if canImport(Darwin)
                    Darwin.accept(listener, address, &length)
                #elseif canImport(Musl)
                    Musl.accept(listener, address, &length)
                #else
                    Glibc.accept(listener, address, &length)
                #endif
            }
        }
        guard fd >= 0 else { return nil }
        setNonBlocking(fd)
        #if canImport(Darwin)
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return (fd, describe(storage))
    }

    /// Makes the next `close` send a TCP reset instead of a FIN.
    static func setResetOnClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    static func shutdownWrite(_ fd: Int32) {
        #if canImport(Darwin)
            _ = shutdown(fd, SHUT_WR)
        #else
            _ = shutdown(fd, Int32(SHUT_WR))
        #endif
    }

    private static func port(of storage: sockaddr_storage) -> Int {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin_port))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
        default:
            return 0
        }
    }

    /// `host:port` of a peer address.
    static func describe(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var raw = address.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                }
            }
        case AF_INET6:
            withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var raw = address.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                }
            }
        default:
            return "unknown"
        }
        let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(host):\(port(of: storage))"
    }

    /// Monotonic time in nanoseconds.
    static func monotonicNanos() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped at zero.
    var nanoseconds: UInt64 {
        let parts = components
        guard parts.seconds >= 0 else { return 0 }
        return UInt64(parts.seconds) * 1_000_000_000 + UInt64(max(0, parts.attoseconds / 1_000_000_000))
    }
}

extension SocketSystem {
    /// Closes a descriptor.
    static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    /// Sends bytes without raising SIGPIPE; returns the count or -1 with `errno` set.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Darwin)
            Darwin.send(fd, bytes.baseAddress, bytes.count, sendFlags)
        #elseif canImport(Musl)
            Musl.send(fd, bytes.baseAddress, bytes.count, sendFlags)
        #else
            Glibc.send(fd, bytes.baseAddress, bytes.count, sendFlags)
        #endif
    }

    /// Reads into `buffer`; returns the count, 0 at end of stream, or -1 with `errno` set.
    static func receive(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        #if canImport(Darwin)
            Darwin.read(fd, buffer.baseAddress, buffer.count)
        #elseif canImport(Musl)
            Musl.read(fd, buffer.baseAddress, buffer.count)
        #else
            Glibc.read(fd, buffer.baseAddress, buffer.count)
        #endif
    }

    /// Reads from a file at an offset; returns the count, 0 at end of file, or -1.
    static func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, offset: Int64) -> Int {
        pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
    }

    /// Whether the last call failed only because it would block (or was interrupted).
    static var lastErrorIsTransient: Bool {
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK || code == EINTR
    }

    /// Opens a regular file for reading; returns the descriptor and size, or nil.
    static func openRegularFile(_ path: String) -> (fd: Int32, size: Int64)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            _ = close(fd)
            return nil
        }
        return (fd, Int64(info.st_size))
    }
}
