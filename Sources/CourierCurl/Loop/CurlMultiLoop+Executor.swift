import Foundation

/// The loop as a task executor: see `CurlTransport.executor`.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension CurlMultiLoop: TaskExecutor {
    /// Queues `job` for the loop thread, or for the global concurrent executor once the loop
    /// has stopped, so that a task preferring a shut-down transport still runs.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !enqueue(job: job) { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
}

extension CurlMultiLoop {
    /// Runs jobs on the loop thread, as the task executor they prefer.
    func runOnLoop(_ jobs: [UnownedJob]) {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let executor = asUnownedTaskExecutor()
        for job in jobs { job.runSynchronously(on: executor) }
    }

    /// Hands a job the stopped loop will not run to the global concurrent executor.
    func forwardToGlobalExecutor(_ job: UnownedJob) {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        globalConcurrentExecutor.enqueue(ExecutorJob(job))
    }
}
