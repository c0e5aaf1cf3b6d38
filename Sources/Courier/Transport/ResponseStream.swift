import CourierPrimitives
import Foundation

/// A response body delivered as it arrives, in chunks, with backpressure: while the consumer
/// is behind, the transport stops reading from the network, so memory stays bounded however
/// large the body and however slow the reader.
///
/// Iterate it once, from one task:
///
/// ```swift
/// let response = try await manager.stream(URLRequest(url: URL(string: "/notes/export")!))
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
    /// Iteration throws only `CourierError`: `for try await` in a `throws(CourierError)`
    /// function needs no conversion.
    public typealias Failure = CourierError

    private let consumer: Consumer

    /// Wraps the buffer a transport fills.
    package init(_ buffer: StreamBuffer) {
        consumer = Consumer(buffer)
    }

    /// Reads from `source`.
    init(source: any ResponseStreamSource) {
        consumer = Consumer(source)
    }

    /// A stream of the given chunks, already complete: for stubs, tests and a body already whole.
    /// - Parameter chunks: the body, chunk by chunk.
    public init(chunks: [Data]) {
        let buffer = StreamBuffer(capacity: .max, request: nil)
        for chunk in chunks { _ = buffer.offer(chunk) }
        buffer.finish(nil)
        consumer = Consumer(buffer)
    }

    /// A stream of `bytes` of a file, read a chunk at a time as the consumer asks: for a body
    /// kept on disk (a cache's), never held whole in memory. The file is opened now, so one
    /// removed or replaced later still streams the bytes it had.
    /// - Parameters:
    ///   - file: the file.
    ///   - bytes: the byte positions to stream; nil for the whole file.
    /// - Throws: `CourierError` `.fileReadFailed` when the file cannot be opened or is too short.
    public init(contentsOf file: URL, bytes: ClosedRange<Int64>? = nil) throws(CourierError) {
        consumer = Consumer(try FileSource(file: file, bytes: bytes))
    }

    /// This stream, with `observer` told of every chunk as the consumer reads it, and once of
    /// its end: `nil` when the body ended whole, the error when it failed, was cancelled or was
    /// dropped before its end. What an interceptor that keeps a body (a cache, a recorder) uses
    /// to see it pass, whole or not at all, without holding it up.
    /// - Parameters:
    ///   - chunk: called with each chunk, on the consumer's task, before the consumer gets it.
    ///   - end: called exactly once, when the stream ends for any reason.
    /// - Returns: the stream to hand on in place of this one.
    public func observed(
        chunk: @escaping @Sendable (Data) -> Void, end: @escaping @Sendable (CourierError?) -> Void
    ) -> ResponseStream {
        ResponseStream(source: TeeSource(upstream: consumer, chunk: chunk, end: end))
    }

    /// Creates the iterator. Iterate a stream once: a second iterator shares the first's chunks.
    public func makeAsyncIterator() -> Iterator {
        Iterator(consumer: consumer)
    }

    /// Stops the transfer now; a pending or later `next()` throws `.cancelled`.
    public func cancel() {
        consumer.source.cancel()
    }

    /// The most bytes that ever waited unread in this stream's buffer.
    package var peakBufferedBytes: Int { (consumer.source as? StreamBuffer)?.peakBufferedBytes ?? 0 }

    /// Reads the whole body into memory, up to `limit` bytes.
    /// - Parameter limit: the most bytes to collect.
    /// - Returns: the bytes.
    /// - Throws: `CourierError`: `.responseTooLarge` past `limit` (and the transfer is
    ///   cancelled), or what ended the transfer.
    public func collect(upTo limit: Int) async throws(CourierError) -> Data {
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
        public mutating func next() async throws(CourierError) -> Data? {
            try await consumer.source.next()
        }

        /// The next chunk, or nil at the end of the body: what `for try await` calls.
        /// - Throws: `CourierError`, as `next()` does.
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(CourierError) -> Data?
        {
            try await consumer.source.next()
        }
    }

    /// Holds the source for the stream and its iterators; when the last of them is gone
    /// before the end, the transfer is cancelled.
    final class Consumer: Sendable {
        let source: any ResponseStreamSource

        init(_ source: any ResponseStreamSource) { self.source = source }

        deinit { source.cancel() }
    }
}

/// Where a `ResponseStream`'s chunks come from: a transport's buffer, a file, another stream.
protocol ResponseStreamSource: Sendable {
    /// The next chunk, or nil at the end. Called by one consumer at a time.
    func next() async throws(CourierError) -> Data?
    /// Stops the source; a pending or later `next()` throws `.cancelled`. Any thread, any time.
    func cancel()
}

extension StreamBuffer: ResponseStreamSource {}

/// A file's bytes, read a chunk at a time.
final class FileSource: ResponseStreamSource {
    private struct State {
        var handle: FileHandle?
        var left: Int64
    }

    private let state: Locked<State>

    init(file: URL, bytes: ClosedRange<Int64>?) throws(CourierError) {
        do {
            let handle = try FileHandle(forReadingFrom: file)
            let size = Int64(try handle.seekToEnd())
            let range = bytes ?? 0...(size - 1)
            guard size == 0 && bytes == nil || range.upperBound < size else {
                try? handle.close()  // allowed: read only; the error below is thrown
                throw CourierError(.fileReadFailed, "\(file.path) has \(size) bytes, not \(range)")
            }
            try handle.seek(toOffset: UInt64(max(0, range.lowerBound)))
            state = Locked(State(handle: handle, left: size == 0 ? 0 : Int64(range.count)))
        } catch let error as CourierError {
            throw error
        } catch {
            throw CourierError(.fileReadFailed, "cannot read \(file.path): \(error)", underlying: error)
        }
    }

    func next() async throws(CourierError) -> Data? {
        if Task.isCancelled { cancel() }
        return try state.withLock { state throws(CourierError) -> Data? in
            guard let handle = state.handle else {
                // Read to its end (left -1): the end again; otherwise cancelled.
                if state.left < 0 { return nil }
                throw CourierError(.cancelled, "the stream was cancelled")
            }
            guard state.left > 0 else {
                try? handle.close()  // allowed: read only, and every byte was read
                state.handle = nil
                state.left = -1
                return nil
            }
            let data: Data
            do {
                data = try handle.read(upToCount: Int(min(state.left, 64 << 10))) ?? Data()
            } catch {
                throw CourierError(
                    .fileReadFailed, "cannot read the body's file: \(error)", underlying: error)
            }
            guard !data.isEmpty else {
                throw CourierError(.fileReadFailed, "the body's file ended \(state.left) bytes early")
            }
            state.left -= Int64(data.count)
            return data
        }
    }

    func cancel() {
        state.withLock { state in
            try? state.handle?.close()  // allowed: read only; nothing is lost
            state.handle = nil
        }
    }

    deinit { cancel() }
}

/// Another stream's chunks, each shown to an observer as it passes, and its end told once.
final class TeeSource: ResponseStreamSource {
    private let upstream: ResponseStream.Consumer
    private let chunk: @Sendable (Data) -> Void
    private let end: @Sendable (CourierError?) -> Void
    private let ended = Locked(false)

    init(
        upstream: ResponseStream.Consumer, chunk: @escaping @Sendable (Data) -> Void,
        end: @escaping @Sendable (CourierError?) -> Void
    ) {
        self.upstream = upstream
        self.chunk = chunk
        self.end = end
    }

    func next() async throws(CourierError) -> Data? {
        do {
            guard let data = try await upstream.source.next() else {
                finish(nil)
                return nil
            }
            chunk(data)
            return data
        } catch {
            finish(error)
            throw error
        }
    }

    func cancel() {
        upstream.source.cancel()
        finish(CourierError(.cancelled, "the stream was cancelled before its end"))
    }

    private func finish(_ error: CourierError?) {
        let first = ended.withLock { ended in
            defer { ended = true }
            return !ended
        }
        if first { end(error) }
    }

    deinit { cancel() }
}
