/// What a keyed container reads: the decoder, and the object it is over. A pooled container keeps
/// its state and is pointed at another object when it is handed out again.
final class KeyedContainerState {
    /// The decoder; `TapeDecoder.detached` while the container waits in a pool that no decode
    /// uses, where nobody holds it, so that a pool keeps no document alive.
    private(set) var decoder: TapeDecoder
    /// The decoder's view of the tape, copied here so lookups touch no reference counts.
    private(set) var view: TapeView
    /// The object's tape index.
    private(set) var object = 0
    /// Where the decoder keeps this object's coding path.
    private(set) var slot = 0
    /// The number of this object's converted keys in the decoder (`TapeDecoder.keyTables`), or
    /// -1 when its keys are compared as bytes. The table lives in the decoder, not here, so that
    /// a state holds one reference.
    private(set) var table = -1

    init(decoder: TapeDecoder) {
        self.decoder = decoder
        view = decoder.view
        hints = .allocate(capacity: Self.hintCount)
        hints.initialize(repeating: 0, count: Self.hintCount)
    }

    deinit { hints.deallocate() }

    /// Serves `decoder` from now on.
    func attach(to decoder: TapeDecoder) {
        self.decoder = decoder
        view = decoder.view
    }

    /// Lets go of the decoder, for a container no one holds.
    func detach() { attach(to: TapeDecoder.detached) }

    /// Objects with more members than this are looked up through a hash index (`KeyTable.index`).
    static var indexedMemberCount: Int { 32 }

    /// The lookups made on this object so far.
    var lookups = 0
    /// For each of the first `hintCount` lookups, the member number at which the same lookup found
    /// its key in the objects this container was over before. A type asks for its keys in one
    /// order and objects of one type hold them in one order, so in an object whose members sit at
    /// known places (`KeyedTapeContainer.lookup`) the guess is right at once, even where the two
    /// orders differ (a sorted encoder, a type declared in another order).
    let hints: UnsafeMutablePointer<UInt32>
    static var hintCount: Int { 16 }

    /// Points the state at the object at tape index `object`, at the decoder's current path.
    func reset(object: Int, in decoder: TapeDecoder) throws {
        self.object = object
        lookups = 0
        slot = decoder.makeSlot()
        let entry = view.tape[object]
        let large = entry.length > Self.indexedMemberCount
        guard large || decoder.convertsEveryKey || entry.flags & decoder.keyConversionFlags != 0 else {
            table = -1
            return
        }
        let keys = try convertKeys()
        var index: [String: Int]?
        if large {
            var byName: [String: Int] = [:]
            byName.reserveCapacity(keys.count)
            for (name, value) in keys where byName[name] == nil { byName[name] = value }
            index = byName
        }
        table = decoder.addKeyTable(TapeDecoder.KeyTable(keys: keys, index: index))
    }

    /// The object's keys as the key strategy converts them, with their value indices.
    private func convertKeys() throws -> [(name: String, value: Int)] {
        var keys: [(name: String, value: Int)] = []
        keys.reserveCapacity(Int(view.tape[object].length))
        var member = object + 1
        let end = Int(view.tape[object].next)
        // The custom strategy is given the path ending in each key.
        var path: [any CodingKey] = []
        if case .custom = decoder.options.keys { path = decoder.path(ofSlot: slot) }
        while member < end {
            let raw: String
            do {
                raw = try view.string(at: member)
            } catch {
                throw error.decodingError
            }
            let name: String
            switch decoder.options.keys {
            case .plain: name = raw
            case .snakeCase:
                if let cached = decoder.snakeCaseCache[raw] {
                    name = cached
                } else {
                    name = convertFromSnakeCase(raw)
                    decoder.snakeCaseCache[raw] = name
                }
            case .custom(let convert): name = convert(path + [JSONStringKey(raw)]).stringValue
            }
            keys.append((name, member + 1))
            member = Int(view.tape[member + 1].next)
        }
        return keys
    }
}
