/// A keyed container that `KeyedContainerFactory` can make.
protocol TapeKeyedContainer: KeyedDecodingContainerProtocol {
    init(decoder: TapeDecoder, object: Int) throws
}

/// Makes the keyed containers of one key type. `container(keyedBy:)` is generic over the key
/// type and is not specialized for it, so naming `KeyedTapeContainer<Key>` there looks the type
/// up in the runtime's metadata cache, and its conformance in the witness table cache, for
/// every object. A factory is a class generic over the container type itself: its method reads
/// the type and conformance from the factory's own metadata, so they are looked up once per
/// key type and decode, when the factory is made.
class KeyedContainerFactory {
    /// The key type this factory makes containers for.
    let key: ObjectIdentifier

    init(key: ObjectIdentifier) { self.key = key }
}

final class KeyedContainerFactoryFor<Container: TapeKeyedContainer>: KeyedContainerFactory {
    /// Not inlined: inlined into a caller that names the container type, it would look it up again.
    @inline(never)
    func make(decoder: TapeDecoder, object: Int) throws -> KeyedDecodingContainer<Container.Key> {
        KeyedDecodingContainer(try Container(decoder: decoder, object: object))
    }
}
