/// Runs `body` with a loopback port that refuses connections.
///
/// The port stays bound (not listening) until `body` returns: a port that was merely closed may be handed
/// to another test's mock server in the meantime, and the "refused" request would reach that server.
func withClosedLoopbackPort<T>(_ body: (Int) async throws -> T) async throws -> T {
    let socket = try RawSocket.bound(listening: false)
    defer { socket.close() }
    return try await body(socket.localPort)
}
