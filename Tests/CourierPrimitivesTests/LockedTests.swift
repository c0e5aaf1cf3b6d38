import CourierPrimitives
import Testing

/// The one lock box: every change made under it from many threads at once is kept.
struct LockedTests {
    @Test func concurrentChangesAreAllKept() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func aThrowingBodyLeavesTheLockFree() {
        struct Refused: Error {}
        let box = Locked([1])
        #expect(throws: Refused.self) {
            try box.withLock { (values: inout [Int]) throws(Refused) in
                values.append(2)
                throw Refused()
            }
        }
        // The change made before the throw stays, and the lock can be taken again.
        #expect(box.withLock { $0 } == [1, 2])
    }

    /// `withLockIfAvailable` runs its body when the lock is free, and returns nil without
    /// waiting when it is held, here by the same thread (the lock is not recursive).
    @Test func withLockIfAvailableRunsOnlyWhenTheLockIsFree() {
        let box = Locked(1)
        #expect(
            box.withLockIfAvailable { value -> Int in
                value += 1
                return value
            } == 2)
        let inner = box.withLock { _ in box.withLockIfAvailable { $0 } }
        #expect(inner == Int??.some(nil))
        #expect(box.withLock { $0 } == 2)
    }
}
