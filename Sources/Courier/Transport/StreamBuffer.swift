import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The bounded queue between a transport that produces response-body chunks and the one task
/// that consumes them through a `ResponseStream`: the place where backpressure is decided.
///
/// The producer offers chunks; once `capacity` bytes wait unread it is told to pause (libcurl
/// pauses the transfer, URLSession suspends the task), and `onResume` asks it to go on when
/// the consumer has read the queue down to half. Cancelling (the consuming task is cancelled,
/// or every reference to the stream and its iterator is gone) calls `onCancel` once, which
/// stops the transfer.
///
/// The waiting consumer's continuation is resumed exactly once: by the producer (`offer`,
/// `finish`), or by `cancel`, whichever takes it out of the state first.
package final class StreamBuffer: Sendable {
    private struct State {
        var chunks: [Data] = []
        var head = 0
        var buffered = 0
        var peak = 0
        var paused = false
        var outcome: CourierError?? = nil
        var cancelled = false
        var waiter: CheckedContinuation<Data?, any Error>?
        var onResume: (@Sendable () -> Void)?
        var onCancel: (@Sendable () -> Void)?
    }

    /// How many unread bytes make the producer pause.
    package let capacity: Int
    private let request: TransportRequest?
    private let state = Locked(State())

    /// Creates an empty buffer.
    /// - Parameters:
    ///   - capacity: unread bytes at which the producer pauses (at least 1).
    ///   - request: the request, for the errors the consumer sees.
    package init(capacity: Int, request: TransportRequest?) {
        self.capacity = max(1, capacity)
        self.request = request
    }

    /// Installs what the producer does to go on after a pause, and to stop. Call before any
    /// consumer can read.
    package func setHandlers(
        onResume: @escaping @Sendable () -> Void, onCancel: @escaping @Sendable () -> Void
    ) {
        state.withLock { state in
            state.onResume = onResume
            state.onCancel = onCancel
        }
    }

    /// Whether the producer was told to pause and has not been asked to go on.
    package var isPaused: Bool { state.withLock { $0.paused } }

    /// Bytes waiting to be read.
    package var bufferedBytes: Int { state.withLock { $0.buffered } }

    /// The most bytes that ever waited unread.
    package var peakBufferedBytes: Int { state.withLock { $0.peak } }

    // MARK: Producer

    /// What an offer did.
    package enum Offer: Equatable {
        /// The bytes were queued; keep going.
        case accepted
        /// The bytes were queued, but the buffer is now full: pause until `onResume`.
        case acceptedThenPause
        /// The buffer is full and the bytes were not taken: offer them again after `onResume`.
        case refused
        /// The consumer has gone: stop the transfer.
        case cancelled
    }

    /// Offers a chunk that the producer can hold and offer again (libcurl's paused data):
    /// refused while the buffer is full.
    package func offer(_ bytes: UnsafeRawBufferPointer) -> Offer {
        offer(count: bytes.count, mayRefuse: true) { Data(bytes) }
    }

    /// Offers a chunk that must be taken (a URLSession delegate callback cannot give it back).
    package func offer(_ data: Data) -> Offer {
        offer(count: data.count, mayRefuse: false) { data }
    }

    private func offer(count: Int, mayRefuse: Bool, _ make: () -> Data) -> Offer {
        if count == 0 { return .accepted }
        let (result, waiter, chunk): (Offer, CheckedContinuation<Data?, any Error>?, Data?) = state.withLock {
            state in
            if state.cancelled || state.outcome != nil { return (.cancelled, nil, nil) }
            if mayRefuse, state.buffered >= capacity {
                state.paused = true
                return (.refused, nil, nil)
            }
            let data = make()
            if let waiter = state.waiter {
                // The consumer is waiting with nothing queued: hand the chunk over directly.
                state.waiter = nil
                return (.accepted, waiter, data)
            }
            state.chunks.append(data)
            state.buffered += data.count
            state.peak = max(state.peak, state.buffered)
            if state.buffered >= capacity {
                state.paused = true
                return (mayRefuse ? .accepted : .acceptedThenPause, nil, nil)
            }
            return (.accepted, nil, nil)
        }
        waiter?.resume(returning: chunk)
        return result
    }

    /// Ends the stream after the queued chunks: normally with `nil`, else with `error`.
    /// Later calls are ignored. Drops the handlers, so nothing the producer captured outlives it.
    package func finish(_ error: CourierError?) {
        let waiter: CheckedContinuation<Data?, any Error>? = state.withLock { state in
            guard state.outcome == nil else { return nil }
            state.outcome = .some(error)
            state.onResume = nil
            state.onCancel = nil
            guard state.head == state.chunks.count else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        guard let waiter else { return }
        if let error { waiter.resume(throwing: error) } else { waiter.resume(returning: nil) }
    }

    // MARK: Consumer

    /// The next chunk, or nil at the end.
    /// - Throws: `CourierError`: what ended the transfer, or `.cancelled` when the task is
    ///   cancelled (which also stops the transfer).
    package func next() async throws(CourierError) -> Data? {
        do {
            return try await nextChunk()
        } catch let error as CourierError {
            throw error
        } catch {
            throw CourierError(
                .transferFailed, "the stream failed: \(error)", request: request, underlying: error)
        }
    }

    /// `next`, with the continuation's untyped error (only ever a `CourierError`).
    private func nextChunk() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Data?, any Error>) in
                enum Now {
                    case chunk(Data, resume: (@Sendable () -> Void)?)
                    case end(CourierError?)
                    case wait(resume: (@Sendable () -> Void)?)
                }
                let now: Now = state.withLock { state in
                    if state.cancelled {
                        return .end(CourierError(.cancelled, "the stream was cancelled", request: request))
                    }
                    if state.head < state.chunks.count {
                        let chunk = state.chunks[state.head]
                        state.chunks[state.head] = Data()
                        state.head += 1
                        state.buffered -= chunk.count
                        if state.head > 64, state.head * 2 > state.chunks.count {
                            state.chunks.removeFirst(state.head)
                            state.head = 0
                        }
                        return .chunk(chunk, resume: takeResume(&state))
                    }
                    if let outcome = state.outcome { return .end(outcome) }
                    state.waiter = continuation
                    return .wait(resume: takeResume(&state))
                }
                switch now {
                case .chunk(let chunk, let resume):
                    resume?()
                    continuation.resume(returning: chunk)
                case .end(let error):
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: nil)
                    }
                case .wait(let resume):
                    resume?()
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The producer's `onResume` when it is paused and the queue is down to half.
    private func takeResume(_ state: inout State) -> (@Sendable () -> Void)? {
        guard state.paused, state.buffered <= capacity / 2 else { return nil }
        state.paused = false
        return state.onResume
    }

    /// Stops the stream: a waiting `next` throws `.cancelled`, the queue is dropped and the
    /// producer's `onCancel` runs (once). Does nothing after the stream ended.
    package func cancel() {
        let (waiter, onCancel): (CheckedContinuation<Data?, any Error>?, (@Sendable () -> Void)?) =
            state.withLock {
                state in
                guard !state.cancelled else { return (nil, nil) }
                state.cancelled = true
                state.chunks = []
                state.head = 0
                state.buffered = 0
                let waiter = state.waiter
                state.waiter = nil
                let onCancel = state.outcome == nil ? state.onCancel : nil
                state.onCancel = nil
                state.onResume = nil
                return (waiter, onCancel)
            }
        waiter?.resume(throwing: CourierError(.cancelled, "the stream was cancelled", request: request))
        onCancel?()
    }
}
