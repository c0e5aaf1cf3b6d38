import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port nothing listens on: bound to pick a free one, then closed.
func closedLoopbackPort() throws -> Int {
    let socket = try RawSocket.listener()
    let port = socket.localPort
    socket.close()
    return port
}
