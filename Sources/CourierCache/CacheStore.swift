import Courier
import CourierPrimitives
import Foundation

/// The disk side of `HTTPCache`: body files in one folder, an index of their heads saved
/// beside them, least-recently-used eviction beyond a size bound.
///
/// Entries are found by their `id`; a URL (`key`) may have several, one per variant its
/// `Vary` selects (and a partial one), each with its own body file and its own place in the
/// eviction order.
///
/// Every change to the index, and the rename that puts a body file in place, happens under
/// one lock, and the index is saved under it, so saves land in the order of the changes.
/// A file the index does not list (a transfer cut short by a crash) is deleted when the
/// store opens; an unreadable index is dropped with the files it would have listed.
final class CacheStore: Sendable {
    struct Index: Codable, Sendable {
        /// The entries by `id`.
        var records: [String: CachedResponse] = [:]
        var clock: UInt64 = 0
        var totalSize: Int64 { records.values.reduce(0) { $0 + $1.size } }
    }

    /// The index file's name in the folder.
    static let indexName = ".courier-index.json"

    let directory: URL
    let maxBytes: Int64
    private let index: Locked<Index>

    init(directory: URL, maxBytes: Int64) throws(CourierError) {
        self.directory = directory
        self.maxBytes = maxBytes
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CourierError(
                .invalidConfiguration, "cannot create the cache folder \(directory.path): \(error)",
                underlying: error)
        }
        var saved =
            (try? Data(contentsOf: directory.appendingPathComponent(Self.indexName)))
            .flatMap { try? JSONDecoder().decode(Index.self, from: $0) } ?? Index()
        // Keyed anew by id: an index written before variants were kept used the URL.
        saved.records = Dictionary(
            saved.records.values.filter { record in
                fileSize(at: directory.appendingPathComponent(record.file)) == record.size
            }.map { ($0.id, $0) }
        ) { first, second in first.lastUse >= second.lastUse ? first : second }
        let listed = Set(saved.records.values.map(\.file))
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where name != Self.indexName && !listed.contains(name) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        index = Locked(saved)
    }

    /// The most recently used entry for the URL `key`, without marking it used.
    func record(forKey key: String) -> CachedResponse? {
        variants(forKey: key).max { $0.lastUse < $1.lastUse }
    }

    /// Every entry for the URL `key`.
    func variants(forKey key: String) -> [CachedResponse] {
        index.withLock { $0.records.values.filter { $0.key == key } }
    }

    /// The entry `id`, without marking it used.
    func record(id: String) -> CachedResponse? { index.withLock { $0.records[id] } }

    /// The body file of a record.
    func file(of record: CachedResponse) -> URL { directory.appendingPathComponent(record.file) }

    /// Marks the entry `id` used now and returns it.
    func use(_ id: String) -> CachedResponse? {
        index.withLock { index in
            guard var record = index.records[id] else { return nil }
            index.clock &+= 1
            record.lastUse = index.clock
            index.records[id] = record
            save(index)
            return record
        }
    }

    /// A fresh file name in the folder for a body being written.
    func temporaryFile() -> URL { directory.appendingPathComponent(".incoming-\(UUID().uuidString)") }

    /// Moves the body in `temporary` into place for `record.id`, records it, and evicts the
    /// least recently used entries beyond `maxBytes`. A body larger than `maxBytes` is not kept.
    /// - Parameter replacingVariants: whether the URL's other entries are removed.
    /// - Returns: whether it was stored.
    @discardableResult
    func commit(_ temporary: URL, as record: CachedResponse, replacingVariants: Bool = false) -> Bool {
        var record = record
        record.size = fileSize(at: temporary) ?? 0
        guard record.size <= maxBytes else {
            try? FileManager.default.removeItem(at: temporary)
            return false
        }
        let destination = file(of: record)
        let evicted = index.withLock { index -> [String]? in
            // Renaming over the old file is atomic: a reader sees the old or the new body.
            guard rename(temporary.path, destination.path) == 0 else { return nil }
            index.clock &+= 1
            record.lastUse = index.clock
            var evicted: [String] = []
            if replacingVariants {
                for other in index.records.values where other.key == record.key && other.id != record.id {
                    index.records[other.id] = nil
                    if other.file != record.file { evicted.append(other.file) }
                }
            }
            index.records[record.id] = record
            while index.totalSize > maxBytes,
                let oldest = index.records.filter({ $0.key != record.id }).min(by: {
                    $0.value.lastUse < $1.value.lastUse
                })
            {
                index.records[oldest.key] = nil
                evicted.append(oldest.value.file)
            }
            save(index)
            return evicted
        }
        guard let evicted else {
            try? FileManager.default.removeItem(at: temporary)
            return false
        }
        for name in evicted {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        return true
    }

    /// Replaces the head of a stored response (after a `304`), keeping its body, unless the
    /// entry changed since `original` was read: another request stored a newer response (or
    /// merged another `304`) meanwhile, and this older head must not be put on its body.
    /// - Returns: whether the head was replaced.
    @discardableResult
    func update(_ record: CachedResponse, replacing original: CachedResponse) -> Bool {
        index.withLock { index in
            guard let current = index.records[record.id], Self.same(current, original) else { return false }
            index.clock &+= 1
            var record = record
            record.lastUse = index.clock
            index.records[record.id] = record
            save(index)
            return true
        }
    }

    /// Removes the entry `record`, and its body, unless it changed since `record` was read.
    func remove(_ record: CachedResponse) {
        index.withLock { index in
            guard let current = index.records[record.id], Self.same(current, record) else { return }
            index.records[record.id] = nil
            try? FileManager.default.removeItem(at: file(of: record))
            save(index)
        }
    }

    /// Whether `current` is still the entry `original` was read as.
    private static func same(_ current: CachedResponse, _ original: CachedResponse) -> Bool {
        current.file == original.file && current.size == original.size
            && current.requestTime == original.requestTime && current.responseTime == original.responseTime
            && current.headers == original.headers
    }

    /// Removes every entry for the URL `key`, and their bodies.
    func remove(_ key: String) {
        index.withLock { index in
            let removed = index.records.values.filter { $0.key == key }
            guard !removed.isEmpty else { return }
            for record in removed {
                index.records[record.id] = nil
                try? FileManager.default.removeItem(at: file(of: record))
            }
            save(index)
        }
    }

    /// Removes every entry.
    func removeAll() {
        index.withLock { index in
            for record in index.records.values { try? FileManager.default.removeItem(at: file(of: record)) }
            index.records = [:]
            save(index)
        }
    }

    var totalSize: Int64 { index.withLock { $0.totalSize } }

    /// The URLs stored, least recently used first (a URL counts as used when any of its
    /// entries was).
    var keys: [String] {
        index.withLock { index in
            var lastUse: [String: UInt64] = [:]
            for record in index.records.values {
                lastUse[record.key] = max(lastUse[record.key] ?? 0, record.lastUse)
            }
            return lastUse.sorted { $0.value < $1.value }.map(\.key)
        }
    }

    /// A failed save costs only the cache's memory across restarts, not the response.
    private func save(_ index: Index) {
        try? JSONEncoder().encode(index).write(
            to: directory.appendingPathComponent(Self.indexName), options: .atomic)
    }

    /// A stable file name for a key: FNV-1a of it, with the extension kept.
    static func fileName(forKey key: String, fileExtension: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        let clean = fileExtension.filter { $0.isLetter || $0.isNumber }
        return clean.isEmpty ? hex : "\(hex).\(clean)"
    }
}
