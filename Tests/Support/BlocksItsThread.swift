import Foundation
import Testing

/// Runs each job of the tasks that prefer it on a thread of its own, never on Swift's cooperative pool.
///
/// The cooperative pool has one thread per core. A test that blocks one of them (a socket read with a
/// receive timeout, a semaphore, waiting for a child process) stalls every other test of the process
/// meanwhile: on a loaded two-core machine two such tests at once stop the whole suite, other tests run
/// past their time limits and their cached answers past their freshness.
public final class ThreadPerJobExecutor: TaskExecutor {
    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        thread.start()
    }
}

/// A suite or test whose code blocks its thread: it runs on threads of its own (see
/// `ThreadPerJobExecutor`), so that it never holds a thread of the cooperative pool the rest of the
/// suite runs on.
public struct BlocksItsThread: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(ThreadPerJobExecutor()) { try await function() }
    }
}

extension Trait where Self == BlocksItsThread {
    /// The test's code blocks its thread: run it off the cooperative pool.
    public static var blocksItsThread: Self { Self() }
}
