import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Loopback ports for tests: one that refuses connections, a free one for a server started
/// by hand, and a probe for whether a port accepts.
public enum LoopbackPort {
    /// A socket call failed while setting a port up.
    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Binds a free loopback TCP port, reads its number and closes it (to pick a port for nginx).
    public static func reserveAndClose() throws -> Int {
        let (fd, port) = try bindFreePort()
        close(fd)
        return port
    }

    /// Runs `body` with a loopback port that refuses connections: bound, not listening, until `body`
    /// returns. A port that was merely closed may meanwhile be handed to another test's server.
    public static func withRefusingPort<T>(_ body: (Int) async throws -> T) async throws -> T {
        let (fd, port) = try bindFreePort()
        defer { close(fd) }
        return try await body(port)
    }

    /// A socket listening on a free loopback port, for a server written by hand; the caller
    /// closes it.
    /// - Parameter backlog: how many connections may wait to be accepted.
    /// - Returns: the socket and its port.
    /// - Throws: `SetupError` when a socket call fails.
    package static func listeningSocket(backlog: Int32 = 16) throws -> (fd: Int32, port: Int) {
        let (fd, port) = try bindFreePort()
        guard listen(fd, backlog) == 0 else {
            close(fd)
            throw SetupError("listen() failed: errno \(errno)")
        }
        return (fd, port)
    }

    private static func bindFreePort() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SetupError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(fd)
            throw SetupError("bind() failed: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw SetupError("getsockname() failed: errno \(errno)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Whether something accepts connections on the port.
    public static func isAccepting(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
