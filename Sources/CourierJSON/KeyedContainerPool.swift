import Foundation

/// A keyed container that `KeyedContainerPool` can make: a view of the object its state names.
protocol TapeKeyedContainer: KeyedDecodingContainerProtocol {
    init(state: KeyedContainerState)
}

/// Makes the keyed containers of one key type for one decoder, and hands a container out again
/// once nobody holds it.
///
/// `KeyedDecodingContainer.init` boxes its container in a class instance, and looks the box's
/// type up in the runtime's metadata cache, for every object: that cost more than decoding the
/// members of a small object. A pool keeps the containers it made; one whose box only the pool
/// still references (`isKnownUniquelyReferenced`) is pointed at the new object and returned
/// again. A container a caller still holds (a parent object's, while a member of the same type is
/// decoded, or one kept past `init(from:)`) is never reused.
///
/// The pool is generic over the wrapped container type itself (`Wrapped` is
/// `KeyedDecodingContainer<Container.Key>`), so that its methods read that type from the pool's
/// own metadata: named in a generic function, `KeyedDecodingContainer<Key>` is looked up in the
/// runtime's cache at each use. When a decode ends, its pools go back to `KeyedContainerPools`
/// with the containers nobody kept, for the next decode to take: a pool and its containers are
/// made once per key type, not once per decode.
class KeyedContainerPool {
    /// The key type this pool makes containers for.
    let key: ObjectIdentifier

    init(key: ObjectIdentifier) { self.key = key }

    /// Hands the pool's containers to `decoder`, for a decode that took the pool.
    func attach(to decoder: TapeDecoder) {}

    /// Drops the containers a caller still holds and lets go of the decoder in the others, at the
    /// end of a decode; returns whether the pool can serve another decode.
    func detach() -> Bool { false }
}

/// The pools no decode is using, by key type, shared by every decode of the process.
enum KeyedContainerPools {
    private static let lock = NSLock()
    /// Read and written under `lock` only.
    nonisolated(unsafe) private static var idle: [ObjectIdentifier: [KeyedContainerPool]] = [:]

    /// A pool for the key type `key` that no decode is using, if there is one; it is the caller's
    /// until it gives it back.
    static func take(_ key: ObjectIdentifier) -> KeyedContainerPool? {
        lock.lock()
        defer { lock.unlock() }
        return idle[key]?.popLast()
    }

    /// Gives back the pools a decode took or made, detached from its decoder; those that cannot
    /// serve another decode are dropped.
    static func give(_ pools: [KeyedContainerPool]) {
        lock.lock()
        defer { lock.unlock() }
        for pool in pools where pool.detach() { idle[pool.key, default: []].append(pool) }
    }
}

final class KeyedContainerPoolFor<Container: TapeKeyedContainer, Wrapped>: KeyedContainerPool {
    /// The containers handed out so far, and their states; at most `capacity`.
    private let boxes: UnsafeMutablePointer<Wrapped>
    /// Not counted: each is owned by its container, which the pool holds in `boxes`.
    @exclusivity(unchecked) private var states: [Unmanaged<KeyedContainerState>] = []
    @exclusivity(unchecked) private var count = 0
    /// Whether containers are kept for reuse: not by a decoder made for `superDecoder` (whose
    /// pools no decode gives back), and only when `KeyedDecodingContainer` is one reference to
    /// its box, which is what the uniqueness check reads.
    let pools: Bool

    /// Containers of one key type in use at once: one per nesting level of that type. A deeper
    /// recursion makes its further containers afresh rather than scan a long list.
    private static var capacity: Int { 8 }

    init(key: ObjectIdentifier, pooling: Bool) {
        boxes = .allocate(capacity: Self.capacity)
        pools =
            pooling && MemoryLayout<Wrapped>.size == MemoryLayout<AnyObject>.size
            && MemoryLayout<Wrapped>.alignment == MemoryLayout<AnyObject>.alignment
        super.init(key: key)
    }

    deinit {
        boxes.deinitialize(count: count)
        boxes.deallocate()
    }

    override func attach(to decoder: TapeDecoder) {
        for state in states { state.takeUnretainedValue().attach(to: decoder) }
    }

    override func detach() -> Bool {
        guard pools else { return false }
        var kept = 0
        for position in 0..<count {
            if isUnused(position) {
                states[position].takeUnretainedValue().detach()
                if kept != position {
                    (boxes + kept).moveInitialize(from: boxes + position, count: 1)
                    states[kept] = states[position]
                }
                kept &+= 1
            } else {
                // A caller kept this container: it keeps its decoder, and leaves the pool.
                (boxes + position).deinitialize(count: 1)
            }
        }
        count = kept
        states.removeSubrange(kept...)
        return true
    }

    /// A container over the object at tape index `object`, at the decoder's current path.
    func make(decoder: TapeDecoder, object: Int) throws -> Wrapped {
        var position = count
        // The most recent first: the one a sibling object of the same type just gave back.
        while position > 0 {
            position &-= 1
            if isUnused(position) {
                try states[position]._withUnsafeGuaranteedRef { try $0.reset(object: object, in: decoder) }
                return boxes[position]
            }
        }
        return try makeNew(decoder: decoder, object: object)
    }

    /// A new container over the object at `object`, kept for reuse when there is room. Not
    /// inlined: its type look-ups would be hoisted into `make`, where the reuse path would pay them.
    @inline(never)
    private func makeNew(decoder: TapeDecoder, object: Int) throws -> Wrapped {
        let state = KeyedContainerState(decoder: decoder)
        try state.reset(object: object, in: decoder)
        // The cast is from the type to itself (`Wrapped` is this type), once per container made.
        let container = KeyedDecodingContainer(Container(state: state)) as! Wrapped
        if pools && count < Self.capacity {
            (boxes + count).initialize(to: container)
            states.append(Unmanaged.passUnretained(state))
            count &+= 1
        }
        return container
    }

    /// Whether the pool's container at `position` is referenced by the pool alone.
    @inline(__always)
    private func isUnused(_ position: Int) -> Bool {
        isKnownUniquelyReferenced(
            &UnsafeMutableRawPointer(boxes + position).assumingMemoryBound(to: AnyObject.self).pointee)
    }
}
