import Courier
import CourierPrimitives
import Foundation

/// Counts things seen on several threads (requests a handler saw, attempts a client made).
final class Counter: Sendable {
    private let value = Locked(0)

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        value.withLock {
            $0 += 1; return $0
        }
    }

    /// The current count.
    var count: Int { value.withLock { $0 } }
}

/// Collects values seen on several threads, in order.
final class Collector<Element: Sendable>: Sendable {
    private let items = Locked<[Element]>([])

    func append(_ item: Element) { items.withLock { $0.append(item) } }

    var all: [Element] { items.withLock { $0 } }
}
