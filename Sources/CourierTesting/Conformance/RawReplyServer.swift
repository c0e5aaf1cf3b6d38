import Foundation

/// A loopback server that answers every request with the same bytes and closes the connection,
/// for replies the mock server does not make (a `Transfer-Encoding` it would not write).
final class RawReplyServer: Sendable {
    private let listener: LoopbackListener

    /// Starts listening on a free loopback port.
    /// - Throws: `LoopbackPort.SetupError` when the socket cannot be set up.
    init(reply: Data) throws {
        listener = try LoopbackListener { connection in
            connection.setTimeouts(receive: 10)
            var received = Data()
            guard connection.receiveHead(into: &received) != nil else { return }
            connection.send(reply)
        }
    }

    var url: URL { listener.baseURL.appendingPathComponent("raw") }

    /// Stops accepting.
    func stop() { listener.stop() }
}
