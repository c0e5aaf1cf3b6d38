import Courier
import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call whose URLSession task is being made on another thread, so that it can be cancelled
/// (and answered) at once whatever that thread is waiting for: FoundationNetworking makes a
/// task under its session's work queue, which a busy or held-back session keeps for seconds.
///
/// The continuation is resumed exactly once: by `cancel` while no transfer is installed, by
/// `setContinuation` when the call was cancelled before it got there, or by the transfer.
final class PendingTransfer: Sendable {
    typealias Continuation = CheckedContinuation<TransportResponse, any Error>

    private enum Phase {
        case waiting(Continuation?)
        case installed(Transfer)
        case cancelled(CourierError)
    }

    private let phase = Locked(Phase.waiting(nil))

    /// The call's continuation. Returns false when the call was already cancelled: the
    /// continuation has then been resumed with that error, and no task is to be made.
    func setContinuation(_ continuation: Continuation) -> Bool {
        let cancelled: CourierError? = phase.withLock { phase in
            switch phase {
            case .cancelled(let error): return error
            default:
                phase = .waiting(continuation)
                return nil
            }
        }
        guard let cancelled else { return true }
        continuation.resume(throwing: cancelled)
        return false
    }

    /// The task was made: the transfer takes the continuation over and starts. When the call
    /// was cancelled meanwhile, the transfer fails at once instead (its task never runs).
    func install(_ transfer: Transfer) {
        let continuation: Continuation? = phase.withLock { phase in
            guard case .waiting(let continuation) = phase else { return nil }
            phase = .installed(transfer)
            return continuation
        }
        if let continuation {
            transfer.start(continuation)
        } else {
            transfer.fail(CourierError(.cancelled, "the task was cancelled"))
        }
    }

    /// Making the task failed: the call ends with `error`.
    func abandon(_ error: any Error) {
        let continuation: Continuation? = phase.withLock { phase in
            guard case .waiting(let continuation) = phase else { return nil }
            phase = .cancelled(CourierError.wrapping(error, request: nil))
            return continuation
        }
        continuation?.resume(throwing: error)
    }

    /// The calling task was cancelled: the call ends now with `error`.
    func cancel(_ error: CourierError) {
        let (continuation, transfer): (Continuation?, Transfer?) = phase.withLock { phase in
            switch phase {
            case .waiting(let continuation):
                phase = .cancelled(error)
                return (continuation, nil)
            case .installed(let transfer):
                return (nil, transfer)
            case .cancelled:
                return (nil, nil)
            }
        }
        continuation?.resume(throwing: error)
        transfer?.fail(error)
    }
}
