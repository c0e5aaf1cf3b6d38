import Foundation

/// A mock server's response made whole without a socket, for a client in the same process (a
/// `URLProtocol`): the status, the head, the body in memory, and what the exchange should do.
package struct InProcessAnswer: Sendable {
    /// The status code.
    package var status: Int
    /// The header fields, in order, with `Content-Length` set to the body's length.
    package var headers: [(name: String, value: String)]
    /// The body (empty for `HEAD`); with a fault, the part sent before the connection is lost.
    package var body: Data
    /// How long to wait before answering (a stub's delay; a dribble's pacing is not kept).
    package var delay: Duration?
    /// Whether a stub, a handler or the admin API answered; false for the near-miss 404.
    package var matched: Bool
    /// A fault to commit: the exchange ends as a lost connection after `body`.
    package var fault: ServerFault?
    /// Why this response cannot be given without a socket (a proxied stub, an event stream).
    package var unsupported: String?

    /// The largest generated body made in memory.
    static let maxGeneratedBytes: Int64 = 256 << 20

    init(_ response: ServerResponse, matched: Bool, method: String) {
        status = response.status
        delay = response.delay
        self.matched = matched
        fault = response.fault
        var body = Data()
        if response.deferred != nil {
            unsupported = "a proxied stub answers only over the socket server (withMockServer)"
        } else if response.eventStream != nil {
            unsupported = "an event-stream stub answers only over the socket server (withMockServer)"
        } else {
            switch response.body {
            case .empty:
                break
            case .data(let data):
                body = data
            case .file(let url):
                do {
                    body = try Data(contentsOf: url)
                } catch {
                    unsupported = "the body file \(url.path) cannot be read: \(error.localizedDescription)"
                }
            case .generated(let length, let producer):
                if length <= Self.maxGeneratedBytes {
                    body = producer(0, Int(length))
                } else {
                    unsupported = "a generated body of \(length) bytes is too large to answer in memory"
                }
            }
        }
        var headers: [(name: String, value: String)] = []
        for (name, value) in response.headers
        where name.lowercased() != "content-length" && name.lowercased() != "transfer-encoding" {
            headers.append((name, value))
        }
        headers.append(("Content-Length", String(body.count)))
        self.headers = headers
        if method == "HEAD" || status == 204 || status == 304 { body = Data() }
        if fault == .truncatedBody {
            let kept = Int(response.truncateAfter ?? Int64(body.count / 2))
            body = body.prefix(max(0, min(kept, body.count)))
        } else if fault != nil {
            body = Data()
        }
        self.body = body
    }
}
