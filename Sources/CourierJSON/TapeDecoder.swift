import Foundation

/// The `Decoder` over a scanned document. One instance serves a whole decode: nested values
/// move `index` and the path and put them back, as Foundation's decoder does. The path is kept
/// as a parent node and a last key, so that decoding a leaf object allocates no path node.
final class TapeDecoder: Decoder, SingleValueDecodingContainer {
    /// Owns the bytes and tape that `view` points into.
    let document: JSONDocument
    let view: TapeView
    let options: CourierJSONDecoder.Options
    /// The tape index of the value being decoded.
    @exclusivity(unchecked) var index: Int
    /// The coding path of the value being decoded.
    /// The coding path of the value being decoded: `parent` + `key`.
    @exclusivity(unchecked) var parent: CodingPathNode?
    @exclusivity(unchecked) var key: PathKey
    /// The coding paths of the keyed containers made so far, by slot number.
    @exclusivity(unchecked) private var slots: [PathSlot] = []

    private struct PathSlot {
        let parent: CodingPathNode?
        let key: PathKey
        var node: CodingPathNode?
        var made = false
    }

    /// Keeps the decoder's current path (`parent` + `key`) for a new container; returns its slot
    /// number. The key is copied once, straight from the decoder into the slot: passing it on as
    /// an argument first would copy the existential twice.
    func makeSlot() -> Int {
        slots.append(PathSlot(parent: parent, key: key))
        return slots.count - 1
    }

    /// The path of a slot as a node (made once).
    func node(ofSlot slot: Int) -> CodingPathNode? {
        if !slots[slot].made {
            slots[slot].node = CodingPathNode.appending(slots[slot].parent, slots[slot].key)
            slots[slot].made = true
        }
        return slots[slot].node
    }

    /// The node of `parent`, made now if it is a slot's.
    @inline(__always)
    func node(_ parent: PathParent) -> CodingPathNode? {
        switch parent {
        case .node(let node): node
        case .slot(let slot): node(ofSlot: slot)
        }
    }

    func path(ofSlot slot: Int) -> [any CodingKey] {
        CodingPathNode.path(slots[slot].parent, appending: slots[slot].key)
    }

    /// An object's keys as the key strategy converts them (or as `String`s, when they cannot be
    /// compared as bytes), with their value indices; for large objects, also the value index of
    /// each name (the first of duplicates).
    struct KeyTable {
        let keys: [(name: String, value: Int)]
        let index: [String: Int]?
    }

    /// The key tables of the keyed containers that needed one, by table number.
    @exclusivity(unchecked) private(set) var keyTables: [KeyTable] = []

    /// Keeps a container's key table; returns its number.
    func addKeyTable(_ table: KeyTable) -> Int {
        keyTables.append(table)
        return keyTables.count - 1
    }

    /// Converted snake_case keys, by raw key.
    @exclusivity(unchecked) var snakeCaseCache: [String: String] = [:]

    /// The object flags (`TapeEntry.Flags`) that make a keyed container convert its keys under
    /// the key strategy.
    let keyConversionFlags: UInt8
    /// Whether every object's keys are converted (a custom key strategy).
    let convertsEveryKey: Bool

    init(
        document: JSONDocument, options: CourierJSONDecoder.Options, index: Int = 1,
        parent: CodingPathNode? = nil,
        key: PathKey = .absent, poolsContainers: Bool = false
    ) {
        self.poolsContainers = poolsContainers
        self.document = document
        self.view = document.view
        // Read before `options` is stored: a use after the store would copy it.
        switch options.keys {
        case .plain: (keyConversionFlags, convertsEveryKey) = (TapeEntry.Flags.complexKeys, false)
        case .snakeCase:
            (keyConversionFlags, convertsEveryKey) =
                (TapeEntry.Flags.complexKeys | TapeEntry.Flags.underscoreKeys, false)
        case .custom: (keyConversionFlags, convertsEveryKey) = (0, true)
        }
        self.options = options
        self.index = index
        self.parent = parent
        self.key = key
        slots.reserveCapacity(document.objectCount)
    }

    /// What a pooled container's state holds while it waits, detached, for the next decode: it
    /// decodes nothing. `nonisolated(unsafe)`: it is never mutated, read or decoded with; only its
    /// reference is stored.
    nonisolated(unsafe) static let detached = TapeDecoder(
        document: .null(), options: CourierJSONDecoder.Options(CourierJSONDecoder()))

    var codingPath: [any CodingKey] { CodingPathNode.path(parent, appending: key) }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    @inline(__always)
    func kind(_ index: Int) -> JSONKind { view.tape[index].kind }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch kind(index) {
        case .object:
            return try keyedContainerPool(Key.self).make(decoder: self, object: index)
        case .null:
            throw DecodingError.valueNotFound(
                [String: Any].self,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Cannot get keyed decoding container -- found null value instead"))
        case let other:
            throw Self.mismatch([String: Any].self, codingPath, other)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch kind(index) {
        case .array:
            return UnkeyedTapeContainer(
                decoder: self, array: index, node: CodingPathNode.appending(parent, key))
        case .null:
            throw DecodingError.valueNotFound(
                [Any].self,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
        case let other:
            throw Self.mismatch([Any].self, codingPath, other)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// The pools of keyed containers made so far, one for each key type.
    @exclusivity(unchecked) private var keyedContainerPools: [KeyedContainerPool] = []
    /// Whether keyed containers are pooled: by the decoder a decode starts, until it ends
    /// (`closePools`). A decoder made for `superDecoder` makes a new container each time, as
    /// nothing would close its pools.
    @exclusivity(unchecked) private var poolsContainers: Bool

    /// The pool of keyed containers for `Key`, made on first use.
    private func keyedContainerPool<Key: CodingKey>(_: Key.Type)
        -> KeyedContainerPoolFor<KeyedTapeContainer<Key>, KeyedDecodingContainer<Key>>
    {
        let key = ObjectIdentifier(Key.self)
        let count = keyedContainerPools.count
        var position = count
        // Most recently used last: objects of one type tend to come one after another.
        while position > 0 {
            position &-= 1
            if keyedContainerPools[position].key == key {
                let pool = keyedContainerPools[position]
                if position != count &- 1 { keyedContainerPools.swapAt(position, count &- 1) }
                return unsafeDowncast(
                    pool, to: KeyedContainerPoolFor<KeyedTapeContainer<Key>, KeyedDecodingContainer<Key>>.self
                )
            }
        }
        if poolsContainers, let pool = KeyedContainerPools.take(key) {
            pool.attach(to: self)
            keyedContainerPools.append(pool)
            return unsafeDowncast(
                pool, to: KeyedContainerPoolFor<KeyedTapeContainer<Key>, KeyedDecodingContainer<Key>>.self)
        }
        let pool = KeyedContainerPoolFor<KeyedTapeContainer<Key>, KeyedDecodingContainer<Key>>(
            key: key, pooling: poolsContainers)
        keyedContainerPools.append(pool)
        return pool
    }

    /// Ends pooling, when the decode that made this decoder returns: the pools go back for the
    /// next decode, with the containers nobody kept. A container or decoder kept past that still
    /// works; its further containers are made afresh.
    func closePools() {
        guard poolsContainers else { return }
        poolsContainers = false
        KeyedContainerPools.give(keyedContainerPools)
        keyedContainerPools = []
    }

    // MARK: Errors

    static func mismatch(_ type: Any.Type, _ path: [any CodingKey], _ found: JSONKind) -> DecodingError {
        .typeMismatch(
            type,
            DecodingError.Context(
                codingPath: path,
                debugDescription: "Expected to decode \(type) but found \(found.description) instead."
            ))
    }

    @inline(__always)
    func checkNotNull(_ index: Int, _ type: Any.Type, _ parent: PathParent, _ key: PathKey)
        throws
    {
        if kind(index) == .null {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: CodingPathNode.path(node(parent), appending: key),
                    debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
    }

    // MARK: Scalars

    /// The `DecodingError` Foundation throws for `failure` reading a `type` at `parent` + `key`.
    static func error(
        _ failure: ScalarFailure, _ type: Any.Type, _ parent: CodingPathNode?, _ key: PathKey
    ) -> DecodingError {
        switch failure {
        case .null:
            // Foundation reports null as a type mismatch for Bool only.
            if type == Bool.self {
                return mismatch(type, CodingPathNode.path(parent, appending: key), .null)
            }
            return .valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: CodingPathNode.path(parent, appending: key),
                    debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        case .mismatch(let found):
            return mismatch(type, CodingPathNode.path(parent, appending: key), found)
        case .syntax:
            return JSONSyntaxError(offset: 0).decodingError
        }
    }

    func unwrapBool(_ index: Int, _ parent: PathParent, _ key: PathKey) throws -> Bool {
        do {
            return try view.bool(index)
        } catch {
            throw Self.error(error as? ScalarFailure ?? .syntax, Bool.self, node(parent), key)
        }
    }

    func unwrapString(_ index: Int, _ parent: PathParent, _ key: PathKey) throws -> String {
        do {
            return try view.stringValue(index)
        } catch {
            throw Self.error(error as? ScalarFailure ?? .syntax, String.self, node(parent), key)
        }
    }

    func unwrapInteger<T: FixedWidthInteger>(
        _ index: Int, as type: T.Type, _ parent: PathParent, _ key: PathKey
    ) throws -> T {
        do {
            return try view.integer(index, T.self)
        } catch {
            throw Self.error(error as? ScalarFailure ?? .syntax, T.self, node(parent), key)
        }
    }

    func unwrapFloat<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ index: Int, as type: T.Type, _ parent: PathParent, _ key: PathKey
    ) throws -> T {
        do {
            return try view.float(index, T.self)
        } catch {
            if case .mismatch(.string) = error as? ScalarFailure, let value = nonConforming(index, as: T.self)
            {
                return value
            }
            throw Self.error(error as? ScalarFailure ?? .syntax, T.self, node(parent), key)
        }
    }

    /// The value of a `convertFromString` infinity or NaN string at `index`, if it is one.
    func nonConforming<T: BinaryFloatingPoint>(_ index: Int, as type: T.Type) -> T? {
        guard let strings = options.nonConforming, view.tape[index].flags & TapeEntry.Flags.escaped == 0
        else {
            return nil
        }
        let text = view.text(of: index)
        if text.elementsEqual(strings.positive) { return T.infinity }
        if text.elementsEqual(strings.negative) { return -T.infinity }
        if text.elementsEqual(strings.nan) { return T.nan }
        return nil
    }

    // MARK: Any Decodable

    /// Decodes the value at `index` as `T`, at the path `parent` + `key`.
    func unwrap<T: Decodable>(
        _ index: Int, as type: T.Type, parent: PathParent, key: consuming PathKey
    ) throws -> T {
        if T.self == String.self { return Self.cast(try unwrapString(index, parent, key)) }
        if T.self == Int.self { return Self.cast(try unwrapInteger(index, as: Int.self, parent, key)) }
        if T.self == Double.self { return Self.cast(try unwrapFloat(index, as: Double.self, parent, key)) }
        if T.self == Bool.self { return Self.cast(try unwrapBool(index, parent, key)) }
        if T.self == Date.self { return Self.cast(try unwrapDate(index, parent, key)) }
        if T.self == Data.self { return Self.cast(try unwrapData(index, parent, key)) }
        if T.self == URL.self {
            try checkNotNull(index, URL.self, parent, key)
            guard let url = URL(string: try unwrapString(index, parent, key)) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: CodingPathNode.path(node(parent), appending: key),
                        debugDescription: "Invalid URL string."))
            }
            return Self.cast(url)
        }
        if T.self == Decimal.self { return Self.cast(try unwrapDecimal(index, parent, key)) }
        if view.tape[index].kind == .array, let array = TapeDecodedArrays.type(T.self) {
            // What `Array.init(from:)` does, without its calls through an existential container
            // and its type look-ups for every element it appends. Inside `nested`, as `T(from:)`
            // would be: an element's error may report the decoder's own path (ISO 8601 dates do).
            return try nested(index, node(parent), key) {
                var container = UnkeyedTapeContainer(
                    decoder: self, array: index, node: CodingPathNode.appending(self.parent, self.key))
                return try array.decodeElements(of: &container) as! T
            }
        }
        if !options.isPlainKeys, let dictionary = T.self as? any StringKeyedDictionary.Type {
            return try unwrapDictionary(index, elementType: dictionary.elementType, parent, key) as! T
        }
        return try nested(index, node(parent), key) { try T(from: self) }
    }

    /// `value` as `T`, which the caller found to be `Value`: `as!` would ask the runtime to cast
    /// it, at every value of a generic field.
    @inline(__always)
    private static func cast<Value, T>(_ value: Value) -> T { unsafeBitCast(value, to: T.self) }

    /// Runs `body` with this decoder moved to `index` at the path `parent` + `key`. The path is
    /// swapped in and out rather than copied: the key is an existential, and copying one costs.
    @inline(__always)
    func nested<T>(
        _ index: Int, _ parent: consuming CodingPathNode?, _ key: consuming PathKey,
        _ body: () throws -> T
    ) rethrows -> T {
        let savedIndex = self.index
        self.index = index
        swap(&self.parent, &parent)
        swap(&self.key, &key)
        defer {
            self.index = savedIndex
            swap(&self.parent, &parent)
            swap(&self.key, &key)
        }
        return try body()
    }

    private func unwrapDate(_ index: Int, _ parent: PathParent, _ key: PathKey) throws -> Date {
        try checkNotNull(index, Date.self, parent, key)
        switch options.dates {
        case .deferredToDate:
            return try nested(index, node(parent), key) { try Date(from: self) }
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try unwrapFloat(index, as: Double.self, parent, key))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try unwrapFloat(index, as: Double.self, parent, key) / 1000)
        case .iso8601:
            let entry = view.tape[index]
            if entry.kind == .string, entry.flags == 0,
                let date = ISO8601Timestamp.parse(view.text(of: index))
            {
                return date
            }
            let string = try unwrapString(index, parent, key)
            guard let date = try? Date.ISO8601FormatStyle().parse(string) else {
                // Foundation's error stops at the container and leaves the value out; this one
                // names the field and the text, so that a reader can find and fix it.
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: CodingPathNode.path(node(parent), appending: key),
                        debugDescription:
                            "Expected date string to be ISO8601-formatted, found \(string.debugDescription).")
                )
            }
            return date
        case .formatted(let formatter):
            let string = try unwrapString(index, parent, key)
            guard let date = formatter.date(from: string) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: CodingPathNode.path(node(parent), appending: key),
                        debugDescription: "Date string does not match format expected by formatter."))
            }
            return date
        case .custom(let function):
            return try nested(index, node(parent), key) { try function(self) }
        }
    }

    private func unwrapData(_ index: Int, _ parent: PathParent, _ key: PathKey) throws -> Data {
        try checkNotNull(index, Data.self, parent, key)
        switch options.data {
        case .deferredToData:
            return try nested(index, node(parent), key) { try Data(from: self) }
        case .base64:
            guard kind(index) == .string else {
                throw Self.mismatch(
                    String.self, CodingPathNode.path(node(parent), appending: key), kind(index))
            }
            guard let data = Data(base64Encoded: try unwrapString(index, parent, key)) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: CodingPathNode.path(node(parent), appending: key),
                        debugDescription: "Encountered Data is not valid Base64."))
            }
            return data
        case .custom(let function):
            return try nested(index, node(parent), key) { try function(self) }
        }
    }

    private func unwrapDecimal(_ index: Int, _ parent: PathParent, _ key: PathKey) throws
        -> Decimal
    {
        try checkNotNull(index, Decimal.self, parent, key)
        guard kind(index) == .number else {
            throw DecodingError.typeMismatch(
                Decimal.self,
                DecodingError.Context(
                    codingPath: CodingPathNode.path(node(parent), appending: key), debugDescription: ""))
        }
        let start = Int(view.tape[index].start)
        do {
            let number = try JSONNumberText(view.text(of: index), offset: start)
            if let decimal = Decimal(string: String(decoding: number.text, as: UTF8.self)) { return decimal }
        } catch {
            throw error.decodingError
        }
        throw JSONSyntaxError(offset: start).decodingError
    }

    private func unwrapDictionary(
        _ index: Int, elementType: any Decodable.Type, _ parent: PathParent, _ key: PathKey
    ) throws -> [String: Any] {
        try checkNotNull(index, [String: Any].self, parent, key)
        guard kind(index) == .object else {
            throw Self.mismatch(
                [String: Any].self, CodingPathNode.path(node(parent), appending: key), kind(index))
        }
        let path = CodingPathNode.appending(node(parent), key)
        var result: [String: Any] = [:]
        var member = index + 1
        let end = Int(view.tape[index].next)
        while member < end {
            let name = try unwrapString(member, .node(path), .absent)
            let value = member + 1
            // Every value is decoded, a later duplicate too; the first one is kept.
            let element = try unwrapAny(value, as: elementType, parent: path, key: JSONStringKey(name))
            if result[name] == nil { result[name] = element }
            member = Int(view.tape[value].next)
        }
        return result
    }

    private func unwrapAny(
        _ index: Int, as type: any Decodable.Type, parent: CodingPathNode?, key: any CodingKey
    )
        throws -> Any
    {
        try unwrap(index, as: type, parent: .node(parent), key: .key(key))
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { kind(index) == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try unwrapBool(index, .node(parent), key) }
    func decode(_ type: String.Type) throws -> String { try unwrapString(index, .node(parent), key) }
    func decode(_ type: Double.Type) throws -> Double { try unwrapFloat(index, as: type, .node(parent), key) }
    func decode(_ type: Float.Type) throws -> Float { try unwrapFloat(index, as: type, .node(parent), key) }
    func decode(_ type: Int.Type) throws -> Int { try unwrapInteger(index, as: type, .node(parent), key) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unwrapInteger(index, as: type, .node(parent), key) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unwrapInteger(index, as: type, .node(parent), key) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unwrapInteger(index, as: type, .node(parent), key) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unwrapInteger(index, as: type, .node(parent), key) }
    func decode(_ type: UInt.Type) throws -> UInt { try unwrapInteger(index, as: type, .node(parent), key) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unwrapInteger(index, as: type, .node(parent), key) }
    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try unwrapInteger(index, as: type, .node(parent), key)
    }
    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try unwrapInteger(index, as: type, .node(parent), key)
    }
    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try unwrapInteger(index, as: type, .node(parent), key)
    }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try unwrap(index, as: type, parent: .node(parent), key: key)
    }
}
