import Courier
import CourierPrimitives
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One URLSession transfer: its state behind one lock, fed by delegate callbacks, the
/// cancellation handler and the timeout timer.
///
/// The continuation is resumed exactly once, in `complete(_:)` (or in `start(_:)` when the
/// transfer failed before it began).
final class Transfer: Sendable {
    private struct State {
        var continuation: CheckedContinuation<TransportResponse, any Error>?
        var finished = false
        var failure: CourierError?
        var response: HTTPURLResponse?
        var data = Data()
        var file: FileHandle?
        /// Whether `file` was opened (created or cut) by this transfer.
        var openedFile = false
        /// Body bytes for `file` not written yet: written in `writeBatch` pieces, so that the
        /// delegate queue keeps up with FoundationNetworking, which queues every chunk it
        /// reads without waiting (a queue that falls behind holds the chunks in memory).
        var unwritten = Data()
        var received: Int64 = 0
        var expected: Int64?
        var firstByte: TimeInterval?
        var timer: DispatchWorkItem?
        var idleTimer: DispatchWorkItem?
        /// When a byte last went out or came in (or the transfer started).
        var lastActivity = ContinuousClock.now
        /// `heldTime` at `lastActivity`.
        var heldAtActivity = Transfer.heldTime

        /// A byte went out or came in.
        mutating func moved() {
            lastActivity = ContinuousClock.now
            heldAtActivity = Transfer.heldTime
        }
    }

    /// Bytes gathered before one write to the destination file.
    private static let writeBatch = 1 << 20

    private let request: TransportRequest
    private let task: URLSessionTask
    private let delegateQueue: OperationQueue
    private let startedAt = ContinuousClock.now
    private let state: Locked<State>
    /// Where a streamed body goes, when `stream` started this transfer: the continuation is
    /// then resumed with the head, and the body ends the stream.
    private let stream: StreamBuffer?

    init(
        request: TransportRequest, task: URLSessionTask, delegateQueue: OperationQueue,
        stream: StreamBuffer? = nil
    ) {
        self.request = request
        self.task = task
        self.delegateQueue = delegateQueue
        self.stream = stream
        state = Locked(State())
        guard let stream else { return }
        // The consumer caught up: the suspended task goes on (never suspended where
        // FoundationNetworking is used, see `receiveStreamed`). The consumer has gone: stop.
        stream.setHandlers(
            onResume: { [weak self] in
                #if !canImport(FoundationNetworking)
                    self?.task.resume()
                #else
                    _ = self
                #endif
            },
            onCancel: { [weak self] in
                self?.fail(CourierError(.cancelled, "the stream was cancelled", request: request))
            })
    }

    private var elapsed: TimeInterval {
        (ContinuousClock.now - startedAt).timeInterval
    }

    /// Starts the task, or fails at once when cancelled before starting.
    func start(_ continuation: CheckedContinuation<TransportResponse, any Error>) {
        let total = request.options.totalTimeout?.timeInterval ?? 0
        let idle = request.options.effectiveIdleTimeout
        let failure: CourierError? = state.withLock { state in
            if let failure = state.failure {
                state.finished = true
                return failure
            }
            // The task already ended, before it was ever resumed: a shutdown's `invalidateAndCancel`
            // between registering the transfer and this call. Its completion found no continuation.
            if state.finished {
                let ended = CourierError(.cancelled, "the transport was shut down", request: request)
                state.failure = ended
                return ended
            }
            state.continuation = continuation
            if let idle { scheduleIdleCheck(after: idle, in: &state) }
            if total > 0, total.isFinite {
                let timer = DispatchWorkItem { [weak self] in
                    self?.fail(
                        CourierError(
                            .timedOut, "the request took longer than \(total) s",
                            request: self?.request))
                }
                state.timer = timer
                DispatchQueue.global().asyncAfter(deadline: .now() + total, execute: timer)
            }
            return nil
        }
        if let failure {
            task.cancel()
            continuation.resume(throwing: failure)
        } else {
            task.resume()
        }
    }

    /// Arms the idle timer to fire `delay` seconds from now. When it fires it fails the
    /// transfer if nothing moved for the whole idle timeout, or re-arms itself for the rest.
    private func scheduleIdleCheck(after delay: TimeInterval, in state: inout State) {
        let check = DispatchWorkItem { [weak self] in self?.checkIdle() }
        state.idleTimer = check
        DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: check)
    }

    private func checkIdle() {
        guard let idle = request.options.effectiveIdleTimeout else { return }
        let expired: Bool = state.withLock { state in
            guard !state.finished, state.failure == nil else { return false }
            // A task suspended for a slow stream consumer is not idle.
            if stream?.isPaused == true { state.moved() }
            // Nor is the time that a delegate queue held every session back.
            let quiet =
                (ContinuousClock.now - state.lastActivity - (Self.heldTime - state.heldAtActivity))
                .timeInterval
            if quiet >= idle { return true }
            scheduleIdleCheck(after: idle - quiet, in: &state)
            return false
        }
        if expired {
            fail(
                CourierError(
                    .timedOut, "no bytes moved for \(idle) s (the idle timeout)", request: request)
            )
        }
    }

    /// How long every session was held back by a delegate queue, in all (see `BoundedDelegateQueue`).
    fileprivate static var heldTime: Duration {
        #if canImport(FoundationNetworking)
            BoundedDelegateQueue.heldTime
        #else
            .zero
        #endif
    }

    /// Ends the transfer with `error` unless it has already ended or failed.
    func fail(_ error: CourierError) {
        let first = state.withLock { state in
            guard !state.finished, state.failure == nil else { return false }
            state.failure = error
            return true
        }
        // Cancel after the delegate callback now running, if any (a redirect decision;
        // `redirect` sees the failure and does not answer), and never on the delegate queue:
        // `cancel()` waits for the session's work queue, which may itself be waiting for the
        // delegate queue to catch up (`BoundedDelegateQueue`). A streamed transfer whose head
        // was delivered has no redirect decision left, and its delegate queue may hold a backlog
        // of body chunks: it is cancelled at once.
        if first {
            let task = self.task
            if stream != nil, state.withLock({ $0.continuation == nil && $0.response != nil }) {
                DispatchQueue.global().async { task.cancel() }
            } else {
                delegateQueue.addOperation { DispatchQueue.global().async { task.cancel() } }
            }
        }
    }

    /// The response head arrived. Returns whether to go on.
    func receive(_ response: URLResponse) -> Bool {
        // A head queued behind a cancellation or a timeout must not open (and cut) a file, call
        // `onResponseHead` or answer a stream: the transfer is over.
        if state.withLock({ $0.finished || $0.failure != nil }) { return false }
        guard let http = response as? HTTPURLResponse else {
            fail(CourierError(.connectionLost, "the response is not HTTP", request: request))
            return false
        }
        let expected: Int64? = http.expectedContentLength >= 0 ? http.expectedContentLength : nil
        var problem: CourierError?
        switch request.destination.target(status: http.statusCode) {
        case .memory where stream != nil:
            break
        case .memory:
            if let expected, expected > request.options.maxResponseBytes,
                !TransferOptions.hasNoBody(status: http.statusCode, method: request.method)
            {
                problem = CourierError(
                    .responseTooLarge,
                    "Content-Length \(expected) exceeds maxResponseBytes (\(request.options.maxResponseBytes))",
                    request: request, status: http.statusCode, headers: Self.headers(of: http))
            }
        case .file(let url, let keeping):
            problem = openFile(url, keeping: keeping)
        }
        state.withLock { state in
            state.response = http
            state.moved()
            state.expected = expected
            state.firstByte = state.firstByte ?? elapsed
            state.data = Data()
            state.unwritten = Data()
            state.received = 0
        }
        if let problem {
            fail(problem)
            return false
        }
        request.onResponseHead?(http.statusCode, Self.headers(of: http))
        request.progress?(TransferProgress(direction: .download, completed: 0, total: expected))
        if stream != nil { deliverHead(http) }
        return true
    }

    /// A streamed transfer's head arrived: the caller gets it now; the body follows
    /// through `stream`, and `complete` ends the stream.
    private func deliverHead(_ http: HTTPURLResponse) {
        let (continuation, firstByte) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.firstByte)
        }
        continuation?.resume(
            returning: TransportResponse(
                status: http.statusCode, headers: Self.headers(of: http),
                url: http.url ?? request.url,
                timings: Timings(firstByte: firstByte, total: elapsed)))
    }

    /// Opens the destination file: created or truncated, or cut to its first `keeping` bytes
    /// and positioned after them.
    private func openFile(_ url: URL, keeping: Int64) -> CourierError? {
        do {
            let handle: FileHandle
            if keeping > 0 {
                handle = try FileHandle(forWritingTo: url)
                let size = try handle.seekToEnd()
                guard size >= UInt64(keeping) else {
                    try? handle.close()
                    return CourierError(
                        .fileWriteFailed,
                        "\(url.path) has \(size) bytes, fewer than the \(keeping) to resume after",
                        request: request)
                }
                try handle.truncate(atOffset: UInt64(keeping))
                try handle.seekToEnd()
            } else {
                guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                    throw CocoaError(.fileWriteUnknown)
                }
                handle = try FileHandle(forWritingTo: url)
            }
            state.withLock { state in
                try? state.file?.close()
                state.file = handle
                state.openedFile = true
            }
            return nil
        } catch {
            return CourierError(
                .fileWriteFailed, "cannot write the response body to \(url.path)",
                request: request,
                underlying: error)
        }
    }

    /// Body bytes arrived. Bytes after a decided failure (such as a stopped redirect's
    /// body) are dropped.
    func receive(_ data: Data) {
        if let stream {
            receiveStreamed(data, into: stream)
            return
        }
        let limit = request.options.maxResponseBytes
        let outcome: (progress: TransferProgress?, problem: CourierError?) = state.withLock { state in
            guard state.failure == nil, !state.finished else { return (nil, nil) }
            state.moved()
            state.received += Int64(data.count)
            if let file = state.file {
                do {
                    state.unwritten.append(data)
                    if state.unwritten.count >= Self.writeBatch {
                        try file.write(contentsOf: state.unwritten)
                        state.unwritten.removeAll(keepingCapacity: true)
                    }
                } catch {
                    return (
                        nil,
                        CourierError(
                            .fileWriteFailed, "writing the response body failed", request: request,
                            underlying: error)
                    )
                }
            } else {
                if state.received > limit {
                    return (
                        nil,
                        CourierError(
                            .responseTooLarge, "the response body exceeds maxResponseBytes (\(limit))",
                            request: request, status: state.response?.statusCode)
                    )
                }
                state.data.append(data)
            }
            return (
                TransferProgress(direction: .download, completed: state.received, total: state.expected), nil
            )
        }
        if let problem = outcome.problem { fail(problem) }
        if let progress = outcome.progress { request.progress?(progress) }
    }

    /// How far behind, in multiples of `streamBufferBytes`, a consumer may fall where the task
    /// cannot be paused before the stream fails.
    static let unpausableSlack = 8

    /// Streamed body bytes arrived. A delegate cannot give them back, so they are always
    /// queued. Once the consumer is `streamBufferBytes` behind, Apple's URLSession suspends the
    /// task, which stops its reads from the socket until the consumer has caught up by half.
    /// FoundationNetworking cannot: its `suspend()` does not stop delivery (a 200 MiB body kept
    /// arriving in full after it), so there the stream fails with `.responseTooLarge` once the
    /// consumer is `unpausableSlack` times that far behind, rather than hold an unbounded
    /// backlog in memory.
    private func receiveStreamed(_ data: Data, into stream: StreamBuffer) {
        let progress: TransferProgress? = state.withLock { state in
            guard state.failure == nil, !state.finished else { return nil }
            state.moved()
            state.received += Int64(data.count)
            return TransferProgress(direction: .download, completed: state.received, total: state.expected)
        }
        guard let progress else { return }
        switch stream.offer(data) {
        case .accepted, .refused: break
        case .acceptedThenPause:
            #if canImport(FoundationNetworking)
                let limit = request.options.streamBufferBytes.multipliedReportingOverflow(
                    by: Self.unpausableSlack)
                if !limit.overflow, stream.bufferedBytes > limit.partialValue {
                    let error = CourierError(
                        .responseTooLarge,
                        "the stream's consumer fell more than \(limit.partialValue) bytes behind; "
                            + "URLSessionTransport cannot pause a transfer on Linux (use CurlTransport for backpressure)",
                        request: request)
                    fail(error)
                    stream.finish(error)
                    return
                }
            #else
                task.suspend()
                // The consumer may have caught up between `offer` and `suspend()`, its resume then
                // coming first: the task would stay suspended with nothing left to resume it.
                if !stream.isPaused { task.resume() }
            #endif
        case .cancelled:
            fail(CourierError(.cancelled, "the stream was cancelled", request: request))
            return
        }
        request.progress?(progress)
    }

    /// Body bytes went out.
    func sent(_ total: Int64, of expected: Int64) {
        state.withLock { $0.moved() }
        request.progress?(
            TransferProgress(
                direction: .upload, completed: total, total: expected > 0 ? expected : request.body.length))
    }

    /// A redirect arrived. URLSession never follows it: `NetworkManager` decides, the same way
    /// over every transport, so the 3xx is returned as this exchange's response. Returns false when the
    /// transfer is being cancelled and must not answer at all (FoundationNetworking crashes
    /// on a redirect answer that arrives after the cancellation).
    func redirect() -> Bool {
        state.withLock { state in state.failure == nil && !state.finished }
    }

    /// The task ended; resumes the continuation.
    func complete(_ error: (any Error)?) {
        // FoundationNetworking reports no head for a 301–303 or 305–308 that it does not follow
        // because it has no `Location`: the task's response is that head. Its body is lost: the
        // session keeps a redirect's body to itself unless a delegate declines to follow it, and
        // without a `Location` it never asks.
        if error == nil, state.withLock({ $0.response == nil }), let head = task.response as? HTTPURLResponse
        {
            _ = receive(head)
        }
        let snapshot = state.withLock {
            state -> (CheckedContinuation<TransportResponse, any Error>?, State) in
            state.timer?.cancel()
            state.idleTimer?.cancel()
            if let file = state.file, !state.unwritten.isEmpty, state.failure == nil {
                do {
                    try file.write(contentsOf: state.unwritten)
                } catch {
                    state.failure = CourierError(
                        .fileWriteFailed, "writing the response body failed", request: request,
                        underlying: error)
                }
                state.unwritten = Data()
            }
            try? state.file?.close()
            let continuation = state.continuation
            state.continuation = nil
            state.finished = true
            return (continuation, state)
        }
        let finalState = snapshot.1
        let failure =
            finalState.failure
            ?? error.map { URLErrorMapping.courierError(for: $0, request: request) }
        stream?.finish(failure)
        guard let continuation = snapshot.0 else { return }
        if let failure {
            // A `.file` this transfer created or cut holds a partial body: removed. One it never
            // opened (no answer came) is left as it was.
            if case .file(let url) = request.destination, finalState.openedFile {
                try? FileManager.default.removeItem(at: url)
            }
            continuation.resume(throwing: failure)
            return
        }
        guard let http = finalState.response else {
            continuation.resume(
                throwing: CourierError(
                    .connectionLost, "the server sent no response", request: request))
            return
        }
        let body: ResponseBody
        switch request.destination.target(status: http.statusCode) {
        case .memory: body = .data(finalState.data)
        case .file(let url, let keeping): body = .file(url, byteCount: keeping + finalState.received)
        }
        let total = elapsed
        continuation.resume(
            returning: TransportResponse(
                status: http.statusCode, headers: Self.headers(of: http), body: body,
                url: http.url ?? request.url,
                timings: Timings(firstByte: finalState.firstByte, total: total)))
    }

    static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
        var headers = HTTPHeaders()
        let fields = response.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let name = key as? String else { return nil }
            return (name, value as? String ?? "\(value)")
        }
        for (name, value) in fields.sorted(by: { $0.0.lowercased() < $1.0.lowercased() }) {
            if name.caseInsensitiveCompare("Set-Cookie") == .orderedSame {
                for cookie in SetCookieFields.split(value) { headers.add(name: name, value: cookie) }
            } else {
                headers.add(name: name, value: value)
            }
        }
        return headers
    }

}
