import Foundation

/// A response body delivered as it arrives, in chunks, with backpressure: while the consumer
/// is behind, the transport stops reading from the network, so memory stays bounded however
/// large the body and however slow the reader.
///
/// Iterate it once, from one task:
///
/// ```swift
/// let response = try await manager.stream(FilesEndPoint.export)
/// for try await chunk in response.value {
///     try handle.write(contentsOf: chunk)
/// }
/// ```
///
/// Cancelling the task that iterates, or dropping the stream and its iterator before the
/// end, cancels the transfer. A transfer that fails part way makes the iteration throw its
/// `CourierError`.
public struct ResponseStream: AsyncSequence, Sendable {
    /// A chunk of body bytes, as the transport received it (never empty).
    public typealias Element = Data

    private let consumer: Consumer

    /// Wraps the buffer a transport fills.
    package init(_ buffer: StreamBuffer) {
        consumer = Consumer(buffer)
    }

    /// A stream of the given chunks, already complete: for stubs and tests.
    /// - Parameter chunks: the body, chunk by chunk.
    public init(chunks: [Data]) {
        let buffer = StreamBuffer(capacity: .max, request: nil)
        for chunk in chunks { _ = buffer.offer(chunk) }
        buffer.finish(nil)
        consumer = Consumer(buffer)
    }

    /// Creates the iterator. Iterate a stream once: a second iterator shares the first's chunks.
    public func makeAsyncIterator() -> Iterator {
        Iterator(consumer: consumer)
    }

    /// Stops the transfer now; a pending or later `next()` throws `.cancelled`.
    public func cancel() {
        consumer.buffer.cancel()
    }

    /// The most bytes that ever waited unread in this stream's buffer.
    package var peakBufferedBytes: Int { consumer.buffer.peakBufferedBytes }

    /// Reads the whole body into memory, up to `limit` bytes.
    /// - Parameter limit: the most bytes to collect.
    /// - Returns: the bytes.
    /// - Throws: `CourierError`: `.responseTooLarge` past `limit` (and the transfer is
    ///   cancelled), or what ended the transfer.
    public func collect(upTo limit: Int) async throws -> Data {
        var data = Data()
        for try await chunk in self {
            guard data.count + chunk.count <= limit else {
                cancel()
                throw CourierError(.responseTooLarge, "the streamed body is larger than \(limit) bytes")
            }
            data.append(chunk)
        }
        return data
    }

    /// The iterator of a `ResponseStream`.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let consumer: Consumer

        /// The next chunk, or nil at the end of the body.
        /// - Throws: `CourierError`: what ended the transfer, or `.cancelled` when the task
        ///   was cancelled.
        public mutating func next() async throws -> Data? {
            try await consumer.buffer.next()
        }
    }

    /// Holds the buffer for the stream and its iterators; when the last of them is gone
    /// before the end, the transfer is cancelled.
    fileprivate final class Consumer: Sendable {
        let buffer: StreamBuffer

        init(_ buffer: StreamBuffer) { self.buffer = buffer }

        deinit { buffer.cancel() }
    }
}
