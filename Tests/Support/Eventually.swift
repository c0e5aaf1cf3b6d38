/// Polls `condition` every `interval` until it holds or `timeout` has passed, and returns whether
/// it held.
///
/// For waits on something another task or thread does. The default timeout is long on purpose:
/// the whole suite runs in parallel on two cores, and a task can wait tens of seconds for a
/// thread; a wait that succeeds returns as soon as the condition holds, so the bound costs a
/// passing run nothing.
public func eventually(
    timeout: Duration = .seconds(60), every interval: Duration = .milliseconds(10),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: interval)
    }
}
