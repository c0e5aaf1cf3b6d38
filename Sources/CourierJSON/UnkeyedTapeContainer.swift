import Foundation

/// An unkeyed container over one array on the tape, walking its elements in order.
struct UnkeyedTapeContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let node: CodingPathNode?
    let view: TapeView
    let count: Int?
    private(set) var currentIndex = 0
    /// The tape index of the element at `currentIndex`.
    private var position: Int
    private let elementCount: Int

    init(decoder: TapeDecoder, array: Int, node: CodingPathNode?) {
        self.decoder = decoder
        self.node = node
        view = decoder.view
        elementCount = Int(view.tape[array].length)
        count = elementCount
        position = array + 1
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(node) }
    var isAtEnd: Bool { currentIndex >= elementCount }

    /// The current element's key in a coding path.
    private var indexKey: PathKey { .index(currentIndex) }

    /// The next element's tape index; at the end, Foundation's `valueNotFound`.
    @inline(__always)
    private func next(_ type: Any.Type, message: String = "Unkeyed container is at end.") throws -> Int {
        guard currentIndex < elementCount else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: CodingPathNode.path(node, appending: indexKey), debugDescription: message))
        }
        return position
    }

    @inline(__always)
    private mutating func advance() {
        if currentIndex < elementCount { position = Int(view.tape[position].next) }
        currentIndex += 1
    }

    /// The next element when there is one and it is not null; moves past it either way.
    @inline(__always)
    private mutating func nextIfPresent() -> Int? {
        guard currentIndex < elementCount, view.tape[position].kind != .null else { return nil }
        return position
    }

    mutating func decodeNil() throws -> Bool {
        let index = try next(Never.self)
        guard view.tape[index].kind == .null else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let value = try decoder.unwrapBool(try next(type), .node(node), indexKey)
        advance()
        return value
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let value = try decoder.unwrapString(try next(type), .node(node), indexKey)
        advance()
        return value
    }

    mutating func decode(_ type: Double.Type) throws -> Double { try float(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try float(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.unwrap(try next(type), as: type, parent: .node(node), key: indexKey)
        advance()
        return value
    }

    @inline(__always)
    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let value = try decoder.unwrapInteger(try next(type), as: type, .node(node), indexKey)
        advance()
        return value
    }

    @inline(__always)
    private mutating func float<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws
        -> T
    {
        let value = try decoder.unwrapFloat(try next(type), as: type, .node(node), indexKey)
        advance()
        return value
    }

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
        let value = try nextIfPresent().map { try decoder.unwrapBool($0, .node(node), indexKey) }
        advance()
        return value
    }

    mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
        let value = try nextIfPresent().map { try decoder.unwrapString($0, .node(node), indexKey) }
        advance()
        return value
    }

    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try floatIfPresent(type) }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try floatIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try integerIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try integerIfPresent(type) }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        let value = try nextIfPresent().map {
            try decoder.unwrap($0, as: type, parent: .node(node), key: indexKey)
        }
        advance()
        return value
    }

    @inline(__always)
    private mutating func integerIfPresent<T: FixedWidthInteger>(_ type: T.Type) throws -> T? {
        let value = try nextIfPresent().map { try decoder.unwrapInteger($0, as: type, .node(node), indexKey) }
        advance()
        return value
    }

    @inline(__always)
    private mutating func floatIfPresent<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type)
        throws
        -> T?
    {
        let value = try nextIfPresent().map { try decoder.unwrapFloat($0, as: type, .node(node), indexKey) }
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let index = try next(KeyedDecodingContainer<NestedKey>.self)
        let container = try decoder.nested(index, node, indexKey) {
            try decoder.container(keyedBy: type)
        }
        advance()
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = try next((any UnkeyedDecodingContainer).self)
        let container = try decoder.nested(index, node, indexKey) {
            try decoder.unkeyedContainer()
        }
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let index = try next(
            (any Decoder).self, message: "Cannot get superDecoder() -- unkeyed container is at end.")
        let superDecoder = TapeDecoder(
            document: decoder.document, options: decoder.options, index: index,
            parent: node, key: indexKey)
        advance()
        return superDecoder
    }
}

/// An array that `TapeDecoder` decodes element by element itself. The standard library's
/// `Array.init(from:)` reads the elements through an `any UnkeyedDecodingContainer` and, being
/// generic code that is not specialized for the element type, looks types up again for every
/// element it appends; this reads them from the concrete container into storage reserved for
/// all of them. The result is the same: `Array.init(from:)` decodes each element with
/// `decode(Element.self)` until the container is at its end, as this does.
protocol TapeDecodedArray {
    static func decodeElements(of container: inout UnkeyedTapeContainer) throws -> Self
}

/// Which types are `TapeDecodedArray`s, remembered per type: the runtime checks a conditional
/// conformance (`Element: Decodable`) anew at each cast, which cost more than decoding a short array.
enum TapeDecodedArrays {
    private static let lock = NSLock()
    /// The answers so far, by type; read and written under `lock` only.
    nonisolated(unsafe) private static var known: [ObjectIdentifier: (any TapeDecodedArray.Type)?] = [:]

    /// `type` as a `TapeDecodedArray`, or `nil` when it is not one.
    static func type<T>(_ type: T.Type) -> (any TapeDecodedArray.Type)? {
        let key = ObjectIdentifier(type)
        lock.lock()
        defer { lock.unlock() }
        if let answer = known[key] { return answer }
        let answer = type as? any TapeDecodedArray.Type
        known[key] = answer
        return answer
    }
}

extension Array: TapeDecodedArray where Element: Decodable {
    static func decodeElements(of container: inout UnkeyedTapeContainer) throws -> [Element] {
        // Written in place: `append`, generic code that is not specialized for the element type,
        // cost more per element than decoding a small one.
        // The tape knows the count. An empty array is the shared empty storage, into which the
        // initializer would write its count (a race between threads, which ThreadSanitizer reports).
        guard let count = container.count, count > 0 else { return [] }
        return try [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            while !container.isAtEnd, initialized < buffer.count {
                (buffer.baseAddress! + initialized).initialize(to: try container.decode(Element.self))
                initialized += 1
            }
        }
    }
}
