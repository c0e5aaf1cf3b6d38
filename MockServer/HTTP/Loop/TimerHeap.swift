/// A min-heap of one-shot timers ordered by deadline, then by insertion.
struct TimerHeap {
    struct Entry {
        var deadline: UInt64
        var sequence: UInt64
        var action: () -> Void
    }

    private var entries: [Entry] = []
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { entries.isEmpty }
    var earliestDeadline: UInt64? { entries.first?.deadline }

    mutating func insert(deadline: UInt64, action: @escaping () -> Void) {
        nextSequence &+= 1
        entries.append(Entry(deadline: deadline, sequence: nextSequence, action: action))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(child, parent) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest timer if it is due at `now`.
    mutating func popDue(now: UInt64) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        let last = entries.removeLast()
        guard !entries.isEmpty else { return first }
        entries[0] = last
        var parent = 0
        while true {
            let left = parent * 2 + 1
            let right = left + 1
            var best = parent
            if left < entries.count, precedes(left, best) { best = left }
            if right < entries.count, precedes(right, best) { best = right }
            guard best != parent else { break }
            entries.swapAt(parent, best)
            parent = best
        }
        return first
    }

    mutating func removeAll() { entries.removeAll() }

    private func precedes(_ lhs: Int, _ rhs: Int) -> Bool {
        let left = entries[lhs]
        let right = entries[rhs]
        return left.deadline != right.deadline
            ? left.deadline < right.deadline : left.sequence < right.sequence
    }
}
