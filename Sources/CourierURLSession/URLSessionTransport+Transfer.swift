import Courier
import CourierPrimitives
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One URLSession transfer: the effects of its life (the task, the timers, the stream), driven by delegate callbacks, the cancellation handler and the timeout timers.
/// What happens next is decided by `URLSessionTransferMachine`, behind one lock.
///
/// The continuation is resumed exactly once, in `complete(_:)` (or in `start(_:)` when the
/// transfer failed before it began, or at the head of a streamed transfer).
final class Transfer: Sendable {
    private typealias Machine = URLSessionTransferMachine<CheckedContinuation<TransportResponse, any Error>>

    private struct State {
        var machine: Machine
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

    private let request: TransportRequest
    private let task: URLSessionTask
    private let delegateQueue: OperationQueue
    private let startedAt = ContinuousClock.now
    private let state: Locked<State>
    /// Where a streamed body goes, when the request asked for `.streamed` delivery: the continuation is
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
        state = Locked(
            State(
                machine: Machine(
                    isStreamed: stream != nil, maxResponseBytes: request.options.maxResponseBytes)))
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

    private var elapsed: TimeInterval { (ContinuousClock.now - startedAt).timeInterval }

    /// Starts the task, or fails at once when cancelled before starting.
    func start(_ continuation: CheckedContinuation<TransportResponse, any Error>) {
        let total = request.options.totalTimeout?.timeInterval ?? 0
        let idle = request.options.effectiveIdleTimeout
        let action = state.withLock { state in
            let action = state.machine.start(
                continuation,
                shutDown: CourierError(.cancelled, "the transport was shut down", request: request))
            guard case .resumeTask = action else { return action }
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
            return action
        }
        // On the control queue, never the caller's thread: FoundationNetworking's `resume()` and
        // `cancel()` wait for the session's work queue (see `URLSessionTransport.control`).
        let task = self.task
        switch action {
        case .resumeTask:
            URLSessionTransport.control.async { task.resume() }
        case .fail(let continuation, let failure):
            URLSessionTransport.control.async { task.cancel() }
            continuation.resume(throwing: failure)
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
            guard !state.machine.isOver else { return false }
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
        let (action, waiting) = state.withLock { state in
            let action = state.machine.fail(error)
            return (action, action == .none ? nil : state.machine.takeContinuationAfterFailure())
        }
        // The caller hears of the failure now, not when the task has wound down: a cancelled task
        // that FoundationNetworking holds in its queue for a busy origin, or whose connection is
        // still draining, may take many seconds to report its end.
        if let waiting {
            var failure = error
            if failure.request == nil { failure.request = request }
            stream?.finish(failure)
            waiting.resume(throwing: failure)
        }
        // Cancel after the delegate callback now running, if any (a redirect decision;
        // `redirect` sees the failure and does not answer), and never on the delegate queue:
        // `cancel()` waits for the session's work queue, which may itself be waiting for the
        // delegate queue to catch up (`BoundedDelegateQueue`). Nor on the caller's thread (a
        // task's cancellation handler runs on a cooperative thread): `addOperation` waits while
        // the delegate queue is behind.
        let task = self.task
        let delegateQueue = self.delegateQueue
        switch action {
        case .none: break
        case .cancelNow: URLSessionTransport.control.async { task.cancel() }
        case .cancelAfterCallbacks:
            URLSessionTransport.control.async {
                delegateQueue.addOperation { URLSessionTransport.control.async { task.cancel() } }
            }
        }
    }

    /// The response head arrived. Returns whether to go on.
    func receive(_ response: URLResponse) -> Bool {
        // A head queued behind a cancellation or a timeout must not answer a stream: the
        // transfer is over.
        if state.withLock({ $0.machine.isOver }) { return false }
        guard let http = response as? HTTPURLResponse else {
            fail(CourierError(.connectionLost, "the response is not HTTP", request: request))
            return false
        }
        let head = Machine.Head(
            status: http.statusCode, headers: Self.headers(of: http), url: http.url ?? request.url,
            expectedLength: http.expectedContentLength >= 0 ? http.expectedContentLength : nil)
        var problem: CourierError?
        if stream == nil, let expected = head.expectedLength, expected > request.options.maxResponseBytes,
            !TransferOptions.hasNoBody(status: head.status, method: request.method)
        {
            problem = CourierError(
                .responseTooLarge,
                "Content-Length \(expected) exceeds maxResponseBytes (\(request.options.maxResponseBytes))",
                request: request, status: head.status, headers: head.headers)
        }
        let accepted = state.withLock { state in
            guard state.machine.receive(head, at: elapsed) else { return false }
            state.moved()
            return true
        }
        if let problem {
            fail(problem)
            return false
        }
        guard accepted else { return false }
        request.progress?(TransferProgress(direction: .download, completed: 0, total: head.expectedLength))
        guard stream != nil else { return true }
        // Streamed: the caller gets the head now; the body follows through `stream`, and `complete`
        // ends the stream.
        let (continuation, firstByte) = state.withLock { state in
            (state.machine.takeContinuationForHead(), state.machine.firstByte)
        }
        continuation?.resume(
            returning: TransportResponse(
                status: head.status, headers: head.headers, url: head.url,
                timings: Timings(firstByte: firstByte, total: elapsed)))
        return true
    }

    /// Body bytes arrived. Bytes after a decided failure (such as a stopped redirect's
    /// body) are dropped.
    func receive(_ data: Data) {
        let action: Machine.BodyAction = state.withLock { state in
            let action = state.machine.receive(data)
            if case .ignore = action { return action }
            state.moved()
            return action
        }
        switch action {
        case .ignore:
            return
        case .fail(var error):
            error.request = request
            fail(error)
        case .progress(let progress):
            if let stream {
                guard forward(data, to: stream) else { return }
            }
            request.progress?(progress)
        }
    }

    /// How far behind, in multiples of `streamBufferBytes`, a consumer may fall where the task
    /// cannot be paused before the stream fails.
    static let unpausableSlack = 8

    /// Hands streamed body bytes to the stream; returns whether the transfer goes on. A delegate
    /// cannot give bytes back, so they are always queued. Once the consumer is `streamBufferBytes`
    /// behind, Apple's URLSession suspends the task, which stops its reads from the socket until
    /// the consumer has caught up by half. FoundationNetworking cannot: its `suspend()` does not
    /// stop delivery (a 200 MiB body kept arriving in full after it), and a delegate that waits
    /// holds every session in the process back. There the stream fails with `.responseTooLarge`
    /// once the consumer is `unpausableSlack` times that far behind, rather than hold an unbounded
    /// backlog in memory; unless the request bounds the body by nothing (`maxResponseBytes` at
    /// its maximum, as a download's, whose reader writes to disk and is behind only while it waits
    /// for a thread): then what the reader is behind on is held.
    private func forward(_ data: Data, to stream: StreamBuffer) -> Bool {
        switch stream.offer(data) {
        case .accepted, .refused: break
        case .acceptedThenPause:
            #if canImport(FoundationNetworking)
                let limit = request.options.streamBufferBytes.multipliedReportingOverflow(
                    by: Self.unpausableSlack)
                if request.options.maxResponseBytes < .max, !limit.overflow,
                    stream.bufferedBytes > limit.partialValue
                {
                    let error = CourierError(
                        .responseTooLarge,
                        "the stream's consumer fell more than \(limit.partialValue) bytes behind; "
                            + "URLSessionTransport cannot pause a transfer on Linux (use CurlTransport for backpressure)",
                        request: request)
                    fail(error)
                    stream.finish(error)
                    return false
                }
            #else
                task.suspend()
                // The consumer may have caught up between `offer` and `suspend()`, its resume then
                // coming first: the task would stay suspended with nothing left to resume it.
                if !stream.isPaused { task.resume() }
            #endif
        case .cancelled:
            fail(CourierError(.cancelled, "the stream was cancelled", request: request))
            return false
        }
        return true
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
        state.withLock { $0.machine.answersRedirect }
    }

    /// The task ended; resumes the continuation.
    func complete(_ error: (any Error)?) {
        // FoundationNetworking reports no head for a 301–303 or 305–308 that it does not follow
        // because it has no `Location`: the task's response is that head. Its body is lost: the
        // session keeps a redirect's body to itself unless a delegate declines to follow it, and
        // without a `Location` it never asks.
        if error == nil, state.withLock({ $0.machine.head == nil }),
            let head = task.response as? HTTPURLResponse
        {
            _ = receive(head)
        }
        let taskError = error.map { URLErrorMapping.courierError(for: $0, request: request) }
        let completion = state.withLock { state in
            state.timer?.cancel()
            state.idleTimer?.cancel()
            return state.machine.complete(taskError: taskError)
        }
        switch completion.outcome {
        case .failure(var failure):
            if failure.request == nil { failure.request = request }
            stream?.finish(failure)
            completion.continuation?.resume(throwing: failure)
        case .success(let (head, data, _, firstByte)):
            stream?.finish(nil)
            guard let continuation = completion.continuation else { return }
            continuation.resume(
                returning: TransportResponse(
                    status: head.status, headers: head.headers, body: .data(data), url: head.url,
                    timings: Timings(firstByte: firstByte, total: elapsed)))
        }
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
