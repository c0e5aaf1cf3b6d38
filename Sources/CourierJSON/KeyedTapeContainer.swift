import Foundation

/// A keyed container over one object on the tape.
///
/// Plain keys (ASCII, no escapes) are compared byte for byte with the coding key's UTF-8,
/// starting where the last lookup matched, so a type that reads its keys in the order the JSON
/// has them finds each in one comparison. Objects whose keys need more (escapes, non-ASCII text
/// compared as `String`s, a key strategy that changes them) get their keys converted once into
/// a list. Objects with more than `KeyedContainerState.indexedMemberCount` members get a hash index instead, so that
/// no access order makes lookups quadratic. Either way the first of duplicate keys wins, as in
/// Foundation.
///
/// `KeyedDecodingContainer` copies its container for every call, so this one holds a single
/// reference, its state; its coding path and any converted keys live in the decoder (`slot`,
/// `table`). A pool (`KeyedContainerPool`) points the state at the next object once nobody holds
/// the container.
struct KeyedTapeContainer<Key: CodingKey>: TapeKeyedContainer {
    let state: KeyedContainerState

    init(state: KeyedContainerState) { self.state = state }

    var decoder: TapeDecoder { state.decoder }
    var view: TapeView { state.view }
    var object: Int { state.object }
    var slot: Int { state.slot }
    var table: Int { state.table }
    /// This object's coding path as a node, made when first needed.
    var node: CodingPathNode? { decoder.node(ofSlot: slot) }

    var codingPath: [any CodingKey] { decoder.path(ofSlot: slot) }

    var allKeys: [Key] {
        var seen = Set<String>()
        var keys: [Key] = []
        forEachName { name in
            if seen.insert(name).inserted, let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    private func forEachName(_ body: (String) -> Void) {
        if table >= 0 {
            for (name, _) in decoder.keyTables[table].keys { body(name) }
            return
        }
        var member = object + 1
        let end = Int(view.tape[object].next)
        while member < end {
            body(String(decoding: view.text(of: member), as: UTF8.self))
            member = Int(view.tape[member + 1].next)
        }
    }

    /// The tape index of the value for `key`, or `nil` when the object has no such key.
    @inline(__always)
    private func lookup(_ key: some CodingKey) -> Int? {
        var name = key.stringValue
        if table >= 0 {
            let table = decoder.keyTables[table]
            if let index = table.index { return index[name] }
            return table.keys.first(where: { $0.name == name })?.value
        }
        let state = self.state
        let tape = view.tape
        let entry = tape[object]
        let end = Int(entry.next)
        guard end > object + 1 else { return nil }
        let number = state.lookups
        state.lookups = number &+ 1
        // Where no value is a nested container (each member is two entries) and no key repeats,
        // member k's key is at `object + 1 + 2k`: the hint names it without a walk.
        let hinted =
            number < KeyedContainerState.hintCount && entry.flags & TapeEntry.Flags.maybeDuplicates == 0
            && end == object &+ 1 &+ 2 &* Int(entry.length)
        if hinted {
            let member = object &+ 1 &+ 2 &* Int(state.hints[number])
            if member < end && name.withUTF8({ view.keyEquals(member, $0) }) { return member &+ 1 }
        }
        let found: Int? = name.withUTF8 { bytes in
            let fromStart = entry.flags & TapeEntry.Flags.maybeDuplicates != 0
            let cursor = Int(tape[object].cursor)
            let first = fromStart || cursor == 0 ? object + 1 : cursor
            var member = first
            while member < end {
                let value = member + 1
                if view.keyEquals(member, bytes) { return value }
                member = Int(tape[value].next)
            }
            member = object + 1
            while member < first {
                let value = member + 1
                if view.keyEquals(member, bytes) { return value }
                member = Int(tape[value].next)
            }
            return nil
        }
        if let found {
            if hinted { state.hints[number] = UInt32(truncatingIfNeeded: (found &- object &- 2) >> 1) }
            let after = Int(tape[found].next)
            tape[object].cursor = after < end ? UInt32(after) : 0
            return found
        }
        // A non-ASCII coding key can still equal an ASCII JSON key as a String (canonical
        // equivalence, such as U+212A KELVIN SIGN and "K").
        if !name.utf8.allSatisfy({ $0 < 0x80 }) {
            var member = object + 1
            while member < end {
                if String(decoding: view.text(of: member), as: UTF8.self) == name { return member + 1 }
                member = Int(tape[member + 1].next)
            }
        }
        return nil
    }

    @inline(__always)
    private func value(for key: Key) throws -> Int {
        guard let index = lookup(key) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."
                ))
        }
        return index
    }

    /// The value for `key` when it is present and not null.
    @inline(__always)
    private func presentValue(for key: Key) -> Int? {
        guard let index = lookup(key), view.tape[index].kind != .null else { return nil }
        return index
    }

    func contains(_ key: Key) -> Bool { lookup(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { view.tape[try value(for: key)].kind == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let index = try value(for: key)
        do {
            return try view.bool(index)
        } catch {
            throw TapeDecoder.error(error as? ScalarFailure ?? .syntax, type, node, .key(key))
        }
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let index = try value(for: key)
        do {
            return try view.stringValue(index)
        } catch {
            throw TapeDecoder.error(error as? ScalarFailure ?? .syntax, type, node, .key(key))
        }
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.unwrapFloat(try value(for: key), as: type, .slot(slot), .key(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.unwrapFloat(try value(for: key), as: type, .slot(slot), .key(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unwrap(try value(for: key), as: type, parent: .slot(slot), key: .key(key))
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        let index = try value(for: key)
        do {
            return try view.integer(index, type)
        } catch {
            throw TapeDecoder.error(error as? ScalarFailure ?? .syntax, type, node, .key(key))
        }
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let index = presentValue(for: key) else { return nil }
        return try decoder.unwrapBool(index, .slot(slot), .key(key))
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = presentValue(for: key) else { return nil }
        do {
            return try view.stringValue(index)
        } catch {
            throw TapeDecoder.error(error as? ScalarFailure ?? .syntax, type, node, .key(key))
        }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let index = presentValue(for: key) else { return nil }
        return try decoder.unwrapFloat(index, as: type, .slot(slot), .key(key))
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let index = presentValue(for: key) else { return nil }
        return try decoder.unwrapFloat(index, as: type, .slot(slot), .key(key))
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try integerIfPresent(type, key)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = presentValue(for: key) else { return nil }
        return try decoder.unwrap(index, as: type, parent: .slot(slot), key: .key(key))
    }

    @inline(__always)
    private func integerIfPresent<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let index = presentValue(for: key) else { return nil }
        do {
            return try view.integer(index, type)
        } catch {
            throw TapeDecoder.error(error as? ScalarFailure ?? .syntax, type, node, .key(key))
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let index = try value(for: key)
        return try decoder.nested(index, node, .key(key)) {
            try decoder.container(keyedBy: type)
        }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try value(for: key)
        return try decoder.nested(index, node, .key(key)) {
            try decoder.unkeyedContainer()
        }
    }

    func superDecoder() throws -> any Decoder { superDecoder(JSONStringKey.super) }

    func superDecoder(forKey key: Key) throws -> any Decoder { superDecoder(key) }

    /// A decoder for the value at `key`, or for `null` when there is none.
    private func superDecoder(_ key: some CodingKey) -> TapeDecoder {
        TapeDecoder(
            document: decoder.document, options: decoder.options, index: lookup(key) ?? 0,
            parent: node, key: .key(key))
    }
}
