import Courier
import Foundation

/// The life of one URLSession transfer, as a pure value: which continuation is pending,
/// the head and body received so far, and the first failure. `Transfer` keeps it behind
/// one lock and never resumes a continuation or touches the task under it: every method
/// returns what the caller must do after unlocking. It reads no clock (times are passed
/// in) and performs no I/O, and it is generic over the continuation, so tests drive it with plain
/// values, as `TransferStateMachine` is driven for libcurl.
struct URLSessionTransferMachine<Continuation> {
    /// Where the transfer is in its life.
    enum Phase {
        /// Created; `start` not called yet.
        case created
        /// The task runs; the continuation waits for the whole response (or, streamed, the head).
        case running(Continuation)
        /// Streamed only: the head went to the caller; the body goes to the stream.
        case streaming
        /// The continuation has been resumed, or handed out to be resumed.
        case finished
    }

    /// A response head, as the transfer keeps it.
    struct Head: Sendable, Equatable {
        var status: Int
        var headers: HTTPHeaders
        var url: URL
        /// The declared body length, when the server declared one.
        var expectedLength: Int64?
    }

    private(set) var phase: Phase = .created
    /// The first failure; later ones are ignored.
    private(set) var failure: CourierError?
    private(set) var head: Head?
    /// Body bytes received since the head.
    private(set) var received: Int64 = 0
    /// Seconds from the start to the first head.
    private(set) var firstByte: TimeInterval?
    /// The body, when it is kept in memory.
    private(set) var data = Data()
    /// Whether the body goes to a stream rather than memory.
    let isStreamed: Bool
    /// The largest body kept in memory.
    let maxResponseBytes: Int64

    init(isStreamed: Bool, maxResponseBytes: Int64) {
        self.isStreamed = isStreamed
        self.maxResponseBytes = maxResponseBytes
    }

    /// Whether the transfer has ended or is ending: callbacks after that are not answered.
    var isOver: Bool {
        if failure != nil { return true }
        if case .finished = phase { return true }
        return false
    }

    // MARK: Start and stop

    /// What `start` asks the caller to do.
    enum StartAction {
        /// Resume the task.
        case resumeTask
        /// Cancel the task and resume this continuation with this error now.
        case fail(Continuation, CourierError)
    }

    /// Installs the continuation. `shutDown` is the error when the task already ended before
    /// it was ever resumed (a shutdown's `invalidateAndCancel` came first).
    mutating func start(_ continuation: Continuation, shutDown: @autoclosure () -> CourierError)
        -> StartAction
    {
        switch phase {
        case .created:
            if let failure {
                phase = .finished
                return .fail(continuation, failure)
            }
            phase = .running(continuation)
            return .resumeTask
        case .finished:
            let ended = failure ?? shutDown()
            failure = ended
            return .fail(continuation, ended)
        case .running, .streaming:
            return .fail(continuation, CourierError(.invalidConfiguration, "a transfer was started twice"))
        }
    }

    /// What a failure asks the caller to do with the task.
    enum FailAction: Equatable {
        /// Nothing: the transfer had already ended or failed.
        case none
        /// Cancel the task once the delegate callback now running (a redirect decision) is over.
        case cancelAfterCallbacks
        /// Cancel the task at once: a stream whose head went out has no decision left, and its
        /// delegate queue may hold a backlog of body chunks.
        case cancelNow
    }

    /// Records a failure (a cancellation, a timeout, a body too large, a write that failed).
    mutating func fail(_ error: CourierError) -> FailAction {
        guard !isOver else { return .none }
        failure = error
        if case .streaming = phase { return .cancelNow }
        return .cancelAfterCallbacks
    }

    /// After `fail`: the continuation still waiting for the response, handed out to be resumed
    /// with the failure at once (the task's end, reported later, then has none to resume).
    mutating func takeContinuationAfterFailure() -> Continuation? {
        guard failure != nil, case .running(let continuation) = phase else { return nil }
        phase = .finished
        return continuation
    }

    /// Whether to answer a redirect decision: a transfer being cancelled must not answer at all.
    var answersRedirect: Bool { !isOver }

    // MARK: The response

    /// The head arrived `elapsed` seconds after the start. Returns false when the transfer is
    /// over: the head must then not answer a stream.
    mutating func receive(_ head: Head, at elapsed: TimeInterval) -> Bool {
        guard !isOver else { return false }
        self.head = head
        firstByte = firstByte ?? elapsed
        data = Data()
        received = 0
        return true
    }

    /// A streamed transfer's head goes to the caller now: the continuation to resume with it.
    mutating func takeContinuationForHead() -> Continuation? {
        guard isStreamed, case .running(let continuation) = phase else { return nil }
        phase = .streaming
        return continuation
    }

    /// What a piece of the body asks the caller to do.
    enum BodyAction {
        /// Nothing: the transfer is over (a stopped redirect's body, a cancelled task).
        case ignore
        /// Report this progress (and, streamed, hand the bytes to the stream).
        case progress(TransferProgress)
        /// Fail the transfer with this error.
        case fail(CourierError)
    }

    /// Body bytes arrived.
    mutating func receive(_ bytes: Data) -> BodyAction {
        guard !isOver else { return .ignore }
        received += Int64(bytes.count)
        let progress = TransferProgress(
            direction: .download, completed: received, total: head?.expectedLength)
        if isStreamed { return .progress(progress) }
        if received > maxResponseBytes {
            return .fail(
                CourierError(
                    .responseTooLarge, "the response body exceeds maxResponseBytes (\(maxResponseBytes))",
                    status: head?.status))
        }
        data.append(bytes)
        return .progress(progress)
    }

    // MARK: The end

    /// How the transfer ended, for the caller to act on.
    struct Completion {
        /// The continuation to resume, when one is still pending.
        var continuation: Continuation?
        /// The outcome: the failure, or the head and body received.
        var outcome: Result<(Head, body: Data, received: Int64, firstByte: TimeInterval?), CourierError>
    }

    /// Ends the transfer. `taskError` is what the task ended with, mapped to a Courier error;
    /// a failure recorded before it explains the end better (the task's error is then only
    /// "cancelled"), so it wins. Once finished, a second call has no continuation to hand out,
    /// and a `start` after it fails as a shutdown unless a failure was recorded.
    mutating func complete(taskError: CourierError?) -> Completion {
        var continuation: Continuation?
        if case .running(let pending) = phase { continuation = pending }
        phase = .finished
        if let error = failure ?? taskError {
            return Completion(continuation: continuation, outcome: .failure(error))
        }
        guard let head else {
            let error = CourierError(.connectionLost, "the server sent no response")
            return Completion(continuation: continuation, outcome: .failure(error))
        }
        return Completion(continuation: continuation, outcome: .success((head, data, received, firstByte)))
    }
}
