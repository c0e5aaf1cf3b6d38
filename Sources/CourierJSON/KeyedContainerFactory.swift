import Foundation

/// A keyed container that `KeyedContainerFactory` can make.
protocol TapeKeyedContainer: KeyedDecodingContainerProtocol {
    init(decoder: TapeDecoder, object: Int) throws
}

/// Makes the keyed containers of one key type. `container(keyedBy:)` is generic over the key
/// type and is not specialized for it, so naming `KeyedTapeContainer<Key>` there looks the type
/// up in the runtime's metadata cache, and its conformance in the witness table cache, for
/// every object. A factory is a class generic over the container type itself: its method reads
/// the type and conformance from the factory's own metadata, so they are looked up once, when
/// the factory is made. A factory holds nothing of a decode: one serves every decode of the
/// process (`shared(for:)`).
///
/// `@unchecked Sendable`: a factory's only state is its constant key (the class is not final,
/// so the compiler cannot check it).
class KeyedContainerFactory: @unchecked Sendable {
    /// The key type this factory makes containers for.
    let key: ObjectIdentifier

    init(key: ObjectIdentifier) { self.key = key }

    private static let lock = NSLock()
    /// The factories made so far, by key type; read and written under `lock` only.
    nonisolated(unsafe) private static var factories: [ObjectIdentifier: KeyedContainerFactory] = [:]

    /// The process's factory of keyed containers for `Key`, made on first use.
    static func shared<Key: CodingKey>(for _: Key.Type) -> KeyedContainerFactoryFor<KeyedTapeContainer<Key>> {
        let key = ObjectIdentifier(Key.self)
        lock.lock()
        defer { lock.unlock() }
        if let factory = factories[key] {
            return unsafeDowncast(factory, to: KeyedContainerFactoryFor<KeyedTapeContainer<Key>>.self)
        }
        let factory = KeyedContainerFactoryFor<KeyedTapeContainer<Key>>(key: key)
        factories[key] = factory
        return factory
    }
}

/// Sendable: it has no state beyond the base class's constant key.
final class KeyedContainerFactoryFor<Container: TapeKeyedContainer>: KeyedContainerFactory,
    @unchecked Sendable
{
    /// Not inlined: inlined into a caller that names the container type, it would look it up again.
    @inline(never)
    func make(decoder: TapeDecoder, object: Int) throws -> KeyedDecodingContainer<Container.Key> {
        KeyedDecodingContainer(try Container(decoder: decoder, object: object))
    }
}
