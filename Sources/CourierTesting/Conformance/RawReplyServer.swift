import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback server that answers every request with the same bytes and closes the connection,
/// for replies the mock server does not make (a `Transfer-Encoding` it would not write).
final class RawReplyServer: Sendable {
    let port: Int
    private let listener: Int32
    private let reply: Data

    /// Starts listening on a free loopback port.
    /// - Throws: `LoopbackPort.SetupError` when the socket cannot be set up.
    init(reply: Data) throws {
        (listener, port) = try LoopbackPort.listeningSocket()
        self.reply = reply
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/raw")! }  // allowed: always a URL

    /// Stops accepting; the accept thread closes the socket.
    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while received.range(of: Data("\r\n\r\n".utf8)) == nil {
                let count = recv(client, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                received.append(contentsOf: buffer[0..<count])
            }
            var offset = 0
            while offset < reply.count {
                let sent = reply.withUnsafeBytes {
                    send(client, $0.baseAddress! + offset, reply.count - offset, Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 { break }
                offset += sent
            }
            close(client)
        }
    }
}
