import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How an event stream reconnects.
public struct EventStreamOptions: Sendable, Hashable {
    /// The delay before reconnecting until the server sets one with `retry`. Default 3 s.
    public var initialRetry: Duration
    /// The longest delay honoured, whatever `retry` asks. Default 60 s.
    public var maxRetry: Duration
    /// How many reconnections in a row may deliver no event before the stream fails with
    /// `.connectionLost`; `nil` for no limit. Default 5.
    public var maxReconnects: Int?
    /// The most bytes one event (or one line) may take before it ends; a stream that sends
    /// more without a line end or a blank line fails with `.responseTooLarge` instead of being
    /// held in memory. Default 16 MiB.
    public var maxEventBytes: Int

    /// Creates options.
    public init(
        initialRetry: Duration = .seconds(3), maxRetry: Duration = .seconds(60), maxReconnects: Int? = 5,
        maxEventBytes: Int = 16 << 20
    ) {
        self.initialRetry = initialRetry
        self.maxRetry = maxRetry
        self.maxReconnects = maxReconnects
        self.maxEventBytes = maxEventBytes
    }
}

/// The events of a `text/event-stream` resource, read as `EventSource` reads them: when the
/// connection drops or the body ends, it reconnects after the `retry` delay (capped by
/// `EventStreamOptions.maxRetry`) with `Last-Event-ID`, and it ends when the server answers
/// `204 No Content`.
///
/// Events are read from the network only as they are asked for. Cancelling the iterating
/// task, or dropping the iterator, closes the connection.
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent
    /// Iteration throws only `CourierError`.
    public typealias Failure = CourierError

    /// Opens one connection, sending `Last-Event-ID` when the string is not empty.
    package typealias Connect =
        @Sendable (_ lastEventID: String) async throws(CourierError) -> Response<
            ResponseStream
        >

    private let connect: Connect
    private let options: EventStreamOptions

    package init(options: EventStreamOptions, connect: @escaping Connect) {
        self.options = options
        self.connect = connect
    }

    /// Creates the iterator; each iterator opens its own connection.
    public func makeAsyncIterator() -> Iterator {
        Iterator(connect: connect, options: options)
    }

    /// The iterator of `ServerSentEvents`.
    public struct Iterator: AsyncIteratorProtocol {
        private let connect: Connect
        private let options: EventStreamOptions
        private var parser = ServerSentEventParser()
        private var connection: ResponseStream.Iterator?
        private var pending: [ServerSentEvent] = []
        private var connected = false
        private var failedInARow = 0
        private var ended = false
        /// Thrown once the events before it have been delivered.
        private var failure: CourierError?

        fileprivate init(connect: @escaping Connect, options: EventStreamOptions) {
            self.connect = connect
            self.options = options
        }

        /// The next event; nil once the server answered 204.
        /// - Throws: `CourierError`: `.cancelled` when the task is cancelled; an
        ///   unacceptable status or content type (not retried); `.connectionLost` after
        ///   `maxReconnects` reconnections in a row without an event.
        public mutating func next() async throws(CourierError) -> ServerSentEvent? {
            while true {
                if !pending.isEmpty { return pending.removeFirst() }
                if let failure {
                    self.failure = nil
                    throw failure
                }
                if ended { return nil }
                guard var current = connection else {
                    try await open()
                    continue
                }
                do {
                    let chunk = try await current.next()
                    connection = current
                    guard let chunk else {
                        dropped()  // the server ended the body: reconnect
                        continue
                    }
                    pending = parser.feed(chunk)
                    if !pending.isEmpty { failedInARow = 0 }
                } catch {
                    guard Self.isDrop(error) else { throw error }
                    dropped()
                }
                if parser.unfinishedBytes > options.maxEventBytes {
                    connection = nil  // dropping the iterator closes the connection
                    ended = true
                    // The events finished before it are delivered first.
                    failure = CourierError(
                        .responseTooLarge,
                        "an event of the stream passed \(options.maxEventBytes) bytes without ending "
                            + "(EventStreamOptions.maxEventBytes)")
                }
            }
        }

        private mutating func dropped() {
            connection = nil
            parser.reset()
        }

        /// Connects, after the reconnection delay unless this is the first connection.
        private mutating func open() async throws(CourierError) {
            if connected {
                failedInARow += 1
                if let limit = options.maxReconnects, failedInARow > limit {
                    ended = true
                    throw CourierError(
                        .connectionLost,
                        "the event stream dropped \(failedInARow) times in a row without an event")
                }
                let delay = Swift.min(parser.retry ?? options.initialRetry, options.maxRetry)
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    ended = true
                    throw CourierError(.cancelled, "the task was cancelled while waiting to reconnect")
                }
            }
            connected = true
            let response: Response<ResponseStream>
            do {
                response = try await connect(parser.lastEventID)
            } catch {
                if Self.isDrop(error) { return }  // counted and delayed on the next turn
                ended = true
                throw error
            }
            if response.status == 204 {
                response.value.cancel()
                ended = true
                return
            }
            let type = response.headers["Content-Type"].map(MediaType.essence(of:)) ?? ""
            guard type == "text/event-stream" else {
                response.value.cancel()
                ended = true
                throw CourierError(
                    .unacceptableContentType,
                    "an event stream needs Content-Type text/event-stream, not \(type.isEmpty ? "(none)" : type)",
                    request: response.request, status: response.status, headers: response.headers)
            }
            connection = response.value.makeAsyncIterator()
        }

        /// A failure after which `EventSource` reconnects: the network, not the server's answer.
        private static func isDrop(_ error: CourierError) -> Bool {
            error.category == .transport && error.code != .cancelled && error.code != .responseTooLarge
        }
    }
}
