import Courier
import CourierPrimitives
import Foundation

/// The call did not finish within its deadline: a hang.
struct DeadlineExceeded: Error, CustomStringConvertible {
    var seconds: Double
    var description: String { "did not finish within \(seconds) s (a hang)" }
}

/// Resumes a continuation exactly once, from whichever of the work or the timer finishes first.
private final class OnceResume<T: Sendable>: Sendable {
    private let continuation: Locked<CheckedContinuation<T, any Error>?>
    private let timer = Locked<Task<Void, Never>?>(nil)

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = Locked(continuation) }

    func setTimer(_ task: Task<Void, Never>) { timer.withLock { $0 = task } }

    /// Resumes unless already resumed; returns whether this call resumed. Stops the timer.
    @discardableResult
    func resume(_ result: Result<T, any Error>) -> Bool {
        timer.withLock { $0?.cancel() }
        guard let continuation = continuation.withLock({ $0.take() }) else { return false }
        continuation.resume(with: result)
        return true
    }
}

/// Runs `body` and throws `DeadlineExceeded` if it has not finished after `seconds`.
///
/// The body runs in an unstructured task, so a body that ignores cancellation cannot keep the caller
/// waiting: the caller is released at the deadline and the body is cancelled.
func withDeadline<T: Sendable>(
    seconds: Double, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let once = OnceResume(continuation)
        let work = Task {
            do {
                once.resume(.success(try await body()))
            } catch {
                once.resume(.failure(error))
            }
        }
        once.setTimer(
            Task {
                try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                if Task.isCancelled { return }
                if once.resume(.failure(DeadlineExceeded(seconds: seconds))) { work.cancel() }
            })
    }
}
