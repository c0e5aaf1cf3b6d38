#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C socket calls whose names `RawSocket`'s own methods shadow, from whichever C library
/// the platform has.
enum SocketCalls {
    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
            Glibc.connect(fd, address, length)
        #elseif canImport(Musl)
            Musl.connect(fd, address, length)
        #elseif canImport(Darwin)
            Darwin.connect(fd, address, length)
        #endif
    }

    static func close(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(fd)
        #elseif canImport(Musl)
            Musl.close(fd)
        #elseif canImport(Darwin)
            Darwin.close(fd)
        #endif
    }

    static func send(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
        #if canImport(Glibc)
            Glibc.send(fd, bytes, count, flags)
        #elseif canImport(Musl)
            Musl.send(fd, bytes, count, flags)
        #elseif canImport(Darwin)
            Darwin.send(fd, bytes, count, flags)
        #endif
    }

    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(fd, buffer, count)
        #elseif canImport(Musl)
            Musl.read(fd, buffer, count)
        #elseif canImport(Darwin)
            Darwin.read(fd, buffer, count)
        #endif
    }
}
