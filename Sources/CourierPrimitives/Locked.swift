#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value that is only read or written while holding a pthread mutex.
///
/// Courier and the mock server use this instead of `Synchronization.Mutex`. On Linux, `Mutex` locks with a raw futex
/// inside the standard library, which ThreadSanitizer cannot see, so every access it guards is reported
/// as a race. `pthread_mutex_lock` is intercepted by the sanitizers, so the suite runs under
/// `--sanitize=thread` with no suppressions. The API mirrors `Mutex.withLock`.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched between `pthread_mutex_lock` and `_unlock` below.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Not checked for exclusive access at run time: the mutex already makes every access
    /// exclusive, and the check costs more than the lock on a request's path.
    @exclusivity(unchecked) @usableFromInline var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. Do not call back into the same lock from `body`.
    @inlinable
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body(&value)
    }

    /// Runs `body` with exclusive access to the value if the lock is free now; returns nil,
    /// without waiting, when another thread holds it (or this one: the lock is not recursive).
    @inlinable
    package func withLockIfAvailable<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { unlock() }
        return try body(&value)
    }

    @inlinable
    func lock() { pthread_mutex_lock(mutex) }

    @inlinable
    func unlock() { pthread_mutex_unlock(mutex) }
}
