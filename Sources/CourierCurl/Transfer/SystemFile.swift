#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `read`, `write` and `close` on a file descriptor, from whichever C library the platform
/// has. The types that use them have methods of the same names, so the bare C names would
/// resolve to those methods.
enum SystemFile {
    /// `read(2)`: bytes read, 0 at the end, -1 with `errno` set.
    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(fd, buffer, count)
        #elseif canImport(Musl)
            Musl.read(fd, buffer, count)
        #elseif canImport(Darwin)
            Darwin.read(fd, buffer, count)
        #endif
    }

    /// `write(2)`: bytes written, -1 with `errno` set.
    static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, buffer, count)
        #elseif canImport(Musl)
            Musl.write(fd, buffer, count)
        #elseif canImport(Darwin)
            Darwin.write(fd, buffer, count)
        #endif
    }

    /// `close(2)`: 0, or -1 with `errno` set.
    @discardableResult
    static func close(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(fd)
        #elseif canImport(Musl)
            Musl.close(fd)
        #elseif canImport(Darwin)
            Darwin.close(fd)
        #endif
    }
}
