import Courier
import Foundation

/// What a transport written outside Courier streams a response body through, with the same
/// backpressure as Courier's own transports. A program that only sends requests never imports
/// this module; a transport's author does.
extension ResponseStream {
    /// Makes a stream and the producer a transport fills it through: the `.stream` body a
    /// `Transport`'s `send(_:)` returns, with the same backpressure as Courier's own transports.
    ///
    /// ```swift
    /// protocol Connection: Sendable {  // the transport's own network connection
    ///     func pauseReading()
    ///     func resumeReading()
    ///     func close()
    /// }
    ///
    /// func openBody(of request: TransportRequest, on connection: some Connection)
    ///     -> (stream: ResponseStream, producer: ResponseStream.Producer)
    /// {
    ///     ResponseStream.makeStream(
    ///         bufferingUpTo: request.options.streamBufferBytes,
    ///         onResume: { connection.resumeReading() },
    ///         onCancel: { connection.close() })
    /// }
    ///
    /// // For each chunk read from the network; at the end, producer.finish() or finish(throwing:).
    /// func received(_ chunk: Data, by producer: ResponseStream.Producer, on connection: some Connection) {
    ///     switch producer.yield(chunk) {
    ///     case .keepGoing: break
    ///     case .pause: connection.pauseReading()  // until onResume
    ///     case .stop: connection.close()  // the consumer has gone
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - capacity: unread bytes at which `yield` answers `.pause`.
    ///   - onResume: called, from the consumer's thread, once a paused producer may go on (the
    ///     consumer has read the buffer down to half). Keep it cheap; it must not block.
    ///   - onCancel: called once when the consumer stops before the end (its task was
    ///     cancelled, or the stream was dropped): stop the transfer.
    /// - Returns: the stream to hand out, and its producer.
    public static func makeStream(
        bufferingUpTo capacity: Int, onResume: @escaping @Sendable () -> Void,
        onCancel: @escaping @Sendable () -> Void
    ) -> (stream: ResponseStream, producer: Producer) {
        let buffer = StreamBuffer(capacity: capacity, request: nil)
        buffer.setHandlers(onResume: onResume, onCancel: onCancel)
        return (ResponseStream(buffer), Producer(buffer: buffer))
    }

    /// The transport's end of a stream made by `makeStream`.
    public struct Producer: Sendable {
        /// What the producer does after a `yield`.
        public enum Outcome: Sendable, Equatable {
            /// The chunk was queued: keep reading.
            case keepGoing
            /// The chunk was queued, and the consumer is behind: stop reading until `onResume`.
            case pause
            /// The consumer has gone (or the stream already ended): stop the transfer.
            case stop
        }

        let buffer: StreamBuffer

        /// Queues a chunk of body bytes for the consumer. Always takes the chunk, so pause
        /// when told to: the buffer then holds what was read before the pause.
        /// - Parameter chunk: the bytes, as they came (an empty chunk is ignored).
        /// - Returns: whether to keep reading, pause, or stop.
        public func yield(_ chunk: Data) -> Outcome {
            switch buffer.offer(chunk) {
            case .accepted: .keepGoing
            case .acceptedThenPause, .refused: .pause
            case .cancelled: .stop
            }
        }

        /// Ends the stream once the consumer has read what is queued: at the end of the body,
        /// or with `error`, which the consumer's iteration throws. Later calls are ignored.
        /// - Parameter error: what ended the transfer; nil for the end of the body.
        public func finish(throwing error: CourierError? = nil) {
            buffer.finish(error)
        }
    }
}

extension TransferOptions {
    /// Whether the caller would like the response body as a stream (`ResponseBody.stream`,
    /// returned once the head has arrived) rather than whole in memory (`ResponseBody.data`):
    /// true for a call that writes the body on (`stream`, `events`, `download`), false for one
    /// that holds it in memory anyway (`send`). Either answer is correct; this is the fast path.
    public var prefersStreamedBody: Bool { delivery == .streamed }
}
