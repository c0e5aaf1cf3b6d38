import Foundation

/// A response a handler returns to the mock server.
public struct ServerResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The reason phrase; the standard one when nil.
    public var reason: String?
    /// The header fields. `Content-Length`, `Transfer-Encoding` and `Connection` are set by the server;
    /// a `Connection: close` here makes the server close the connection after this response.
    public var headers: ServerHeaders
    /// The body.
    public var body: ServerResponseBody
    /// A delay before anything of the response is written (a timer; no thread is blocked).
    public var delay: Duration?
    /// Sends the body chunked, spread over a duration (WireMock's `chunkedDribbleDelay`).
    public var dribble: ChunkedDribble?
    /// A fault to commit instead of (or while) answering.
    public var fault: ServerFault?
    /// Server-sent events paced over time (a mapping's `eventStream`); the body when set.
    var eventStream: EventStreamBody?
    /// With `fault: .truncatedBody`, how many body bytes go out before the connection is cut;
    /// half the body when nil.
    public var truncateAfter: Int64?
    /// When set, the real response comes later from another thread (a proxied stub's).
    var deferred: DeferredResponse?
    /// The serialised head of a static stub's response, set where this response is made from the stub
    /// (and used only while the status and header count are still the stub's).
    var prepared: PreparedResponse?

    /// Creates a response.
    /// - Parameters:
    ///   - status: the status code.
    ///   - reason: the reason phrase, standard when nil.
    ///   - headers: the header fields.
    ///   - body: the body.
    ///   - delay: a delay before writing.
    ///   - dribble: chunked dribble of the body.
    ///   - fault: a fault to commit.
    public init(
        status: Int = 200, reason: String? = nil, headers: ServerHeaders = ServerHeaders(),
        body: ServerResponseBody = .empty,
        delay: Duration? = nil, dribble: ChunkedDribble? = nil, fault: ServerFault? = nil
    ) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.delay = delay
        self.dribble = dribble
        self.fault = fault
    }

    /// The header a mock puts on an answer it made from a declaration's or a document's examples
    /// rather than from data it holds, with the value `example`: a client that meets it knows the
    /// server cannot tell a known id from an unknown one.
    public static let exampleAnswerHeader = "Courier-Mock-Answer"

    /// A JSON response with `Content-Type: application/json`.
    /// - Parameters:
    ///   - data: the encoded JSON.
    ///   - status: the status code.
    public static func json(_ data: Data, status: Int = 200) -> ServerResponse {
        ServerResponse(status: status, headers: ["Content-Type": "application/json"], body: .data(data))
    }

    /// A plain-text response with `Content-Type: text/plain; charset=utf-8`.
    /// - Parameters:
    ///   - text: the body text.
    ///   - status: the status code.
    public static func text(_ text: String, status: Int) -> ServerResponse {
        ServerResponse(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: .data(Data(text.utf8)))
    }
}

/// The body of a ``ServerResponse``.
public enum ServerResponseBody: Sendable {
    /// No body.
    case empty
    /// Bytes held in memory.
    case data(Data)
    /// A file streamed from disk; `Range` requests get 206/416 automatically.
    case file(URL)
    /// A body of `length` bytes produced on demand in pieces, never held whole in memory;
    /// `Range` requests are honoured. The producer must return exactly `count` bytes from `offset`.
    case generated(length: Int64, producer: @Sendable (_ offset: Int64, _ count: Int) -> Data)
}

/// Sends a body as `numberOfChunks` chunks spread evenly over `totalDuration`.
public struct ChunkedDribble: Sendable, Equatable {
    /// How many chunks the body is cut into (at least 1).
    public var numberOfChunks: Int
    /// The time from the first to the last chunk.
    public var totalDuration: Duration

    /// Creates a dribble.
    /// - Parameters:
    ///   - numberOfChunks: the chunk count.
    ///   - totalDuration: the spread.
    public init(numberOfChunks: Int, totalDuration: Duration) {
        self.numberOfChunks = numberOfChunks
        self.totalDuration = totalDuration
    }
}

/// A deliberate misbehaviour, named as in WireMock.
public enum ServerFault: String, Sendable, CaseIterable {
    /// Close the connection with a TCP reset.
    case connectionResetByPeer = "CONNECTION_RESET_BY_PEER"
    /// Close the connection without writing anything.
    case emptyResponse = "EMPTY_RESPONSE"
    /// Send a valid status line and headers, then garbage instead of a chunk, then close.
    case malformedResponseChunk = "MALFORMED_RESPONSE_CHUNK"
    /// Send garbage, then close.
    case randomDataThenClose = "RANDOM_DATA_THEN_CLOSE"
    /// Send the headers with the full `Content-Length`, half the body (or
    /// `ServerResponse.truncateAfter` bytes), then close.
    case truncatedBody = "TRUNCATED_BODY"
}
