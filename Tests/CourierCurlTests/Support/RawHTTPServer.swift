import CourierPrimitives
import CourierTesting
import Foundation

/// A loopback server that answers every request with bytes the test wrote by hand, for
/// replies MockServer does not make (a chunked body with trailers), or with nothing at all.
///
/// One thread accepts; each connection gets its own thread, which reads request heads (no
/// request bodies), counts them, writes the reply for each (if any) and holds the connection
/// until the client closes it.
final class RawHTTPServer: Sendable {
    /// How requests are numbered for `reply`.
    enum Numbering: Sendable {
        /// From 0, over every request the server reads.
        case global
        /// From 0 on each connection.
        case perConnection
    }

    private let listener: LoopbackListener
    private let requests: Locked<Int>

    var port: Int { listener.port }
    var baseURL: URL { listener.baseURL }
    /// Request heads read so far.
    var requestCount: Int { requests.withLock { $0 } }
    /// Connections accepted so far.
    var connectionCount: Int { listener.connectionCount }

    /// Binds 127.0.0.1 on a free port and starts accepting.
    /// - Parameters:
    ///   - numbering: whether `reply` gets the request's number over the server or on its
    ///     connection.
    ///   - readTimeout: seconds a connection may wait for its next request before the server
    ///     closes it.
    ///   - reply: the bytes to answer the request with this number (0 for the first) with; nil
    ///     to leave it unanswered; no bytes to close the connection without an answer.
    init(
        numbering: Numbering = .global, readTimeout: Int = 10, reply: @escaping @Sendable (Int) -> Data?
    ) throws {
        let requests = Locked(0)
        listener = try LoopbackListener { connection in
            connection.setTimeouts(receive: readTimeout)
            var received = Data()
            var onConnection = 0
            // Until the client closes the connection, or the receive timeout passes.
            while let end = connection.receiveHead(into: &received) {
                received.removeSubrange(..<end.upperBound)
                let overall = requests.withLock { count in
                    defer { count += 1 }
                    return count
                }
                defer { onConnection += 1 }
                guard let reply = reply(numbering == .global ? overall : onConnection) else { continue }
                if reply.isEmpty { return }  // closed without an answer
                guard connection.send(reply) else { return }
            }
        }
        self.requests = requests
    }

    /// Stops accepting; connections end when their clients close them.
    func stop() { listener.stop() }

    deinit { stop() }
}
