import Courier
import Foundation

/// Why a transfer was stopped before libcurl finished it on its own.
enum TransferAbortReason: Sendable, Equatable {
    /// The calling task was cancelled.
    case cancelled
    /// The transport was shut down while the transfer was in flight.
    case shutdown
    /// The in-memory body passed the limit (declared by `Content-Length` or counted).
    case responseTooLarge(limit: Int64, declared: Int64?)
    /// Reading the request body failed.
    case bodyReadFailed(String)
    /// No byte went out or came in for the idle timeout, in seconds.
    case idle(TimeInterval)

    /// The error the caller sees.
    func error() -> CourierError {
        switch self {
        case .cancelled:
            return CourierError(.cancelled, "the request was cancelled")
        case .shutdown:
            return CourierError(.cancelled, "the transport was shut down before the request finished")
        case .responseTooLarge(let limit, let declared):
            let what = declared.map { "Content-Length \($0) is" } ?? "the response body is"
            return CourierError(.responseTooLarge, "\(what) larger than the limit of \(limit) bytes")
        case .bodyReadFailed(let message):
            return CourierError(.invalidBody, "reading the request body failed: \(message)")
        case .idle(let seconds):
            return CourierError(.timedOut, "no bytes moved for \(seconds) s (the idle timeout)")
        }
    }
}

/// The life of one transfer, as a pure value: which continuation is pending, and why
/// the transfer was stopped if it was. Kept behind one lock in `CurlTransfer`
/// and never resumed under it; every method returns what the caller must do after unlocking.
///
/// Generic over the continuation so tests can drive it with plain values.
struct TransferStateMachine<Continuation> {
    enum State {
        /// Created; `start` not called yet.
        case idle
        /// Submitted to the loop; the continuation is pending.
        case running(Continuation)
        /// The continuation has been resumed (or handed out to be resumed).
        case finished
    }

    private(set) var state: State = .idle
    /// The first reason to stop, if any. Later reasons are ignored.
    private(set) var abortReason: TransferAbortReason?

    /// What `start` asks the caller to do.
    enum StartAction {
        /// Hand the transfer to the loop.
        case submit
        /// Resume this continuation with this error now; the transfer never runs.
        case fail(Continuation, CourierError)
    }

    /// Installs the continuation.
    mutating func start(_ continuation: Continuation) -> StartAction {
        switch state {
        case .idle:
            if let abortReason {
                state = .finished
                return .fail(continuation, abortReason.error())
            }
            state = .running(continuation)
            return .submit
        case .running, .finished:
            return .fail(continuation, CourierError(.invalidConfiguration, "a transfer was started twice"))
        }
    }

    /// What a stop request asks the caller to do.
    enum StopAction: Equatable {
        /// Nothing: the transfer has not started (start will fail) or is already done.
        case none
        /// Ask the loop to remove the transfer's handle now.
        case removeFromLoop
    }

    /// Records a cancellation or shutdown.
    mutating func stop(_ reason: TransferAbortReason) -> StopAction {
        if abortReason == nil { abortReason = reason }
        if case .running = state { return .removeFromLoop }
        return .none
    }

    /// Records a failure found inside a libcurl callback; the callback then returns the
    /// value that makes libcurl end the transfer with an error.
    mutating func fail(_ reason: TransferAbortReason) {
        if abortReason == nil { abortReason = reason }
    }

    /// Whether a callback should make libcurl stop the transfer.
    var shouldAbort: Bool { abortReason != nil }

    /// Ends the transfer. Returns the continuation and what to resume it with, exactly
    /// once; nil if it was already resumed. A recorded abort reason explains a libcurl
    /// failure better than libcurl's code does (a write callback returning 0 is only
    /// "write error" to libcurl), so it replaces the error but keeps libcurl's text.
    mutating func finish(
        _ result: Result<TransportResponse, CourierError>
    ) -> (Continuation, Result<TransportResponse, CourierError>)? {
        guard case .running(let continuation) = state else { return nil }
        state = .finished
        if case .failure(let error) = result {
            return (continuation, .failure(explained(error)))
        }
        return (continuation, result)
    }

    /// `error`, replaced by the recorded abort reason when there is one: libcurl's text for a
    /// callback abort ("Failed writing received data") adds nothing to it, so it is not kept.
    func explained(_ error: CourierError) -> CourierError {
        guard let abortReason else { return error }
        var replaced = abortReason.error()
        replaced.request = error.request
        return replaced
    }
}
