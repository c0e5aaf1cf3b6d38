import Courier
import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A disk cache of downloaded videos keyed by URL (seed 000 `VideoCacheManager`).
///
/// Files keep their extension, the total size is bounded with least-recently-used
/// eviction, and a cached file is revalidated with `If-None-Match` before use: a `304`
/// serves the cached file without downloading it again. Downloads stream to disk.
/// Safe to use from many tasks at once: the index is behind a lock, and files are moved
/// into place atomically. The index is saved in the folder (`.courier-index.json`) whenever a
/// file is added or evicted, so a new `VideoCache` on the same folder finds what an earlier
/// one cached; files the index does not list (a download cut short by a crash) are deleted.
public final class VideoCache: Sendable {
    /// Where a video came from.
    public enum Source: String, Sendable, Hashable {
        /// Downloaded now (not cached, or changed on the server).
        case network
        /// Served from the cache after the server answered 304 Not Modified.
        case revalidated
        /// Served from the cache without asking the server.
        case cache
    }

    /// A video ready to play.
    public struct Entry: Sendable, Hashable {
        /// The cached file.
        public var file: URL
        /// Where it came from.
        public var source: Source
        /// Its size in bytes.
        public var size: Int64
    }

    struct Record: Codable, Sendable {
        var file: String
        var size: Int64
        var etag: String?
        var lastUse: UInt64
    }

    struct Index: Codable, Sendable {
        var records: [String: Record] = [:]
        var clock: UInt64 = 0
        var totalSize: Int64 { records.values.reduce(0) { $0 + $1.size } }
    }

    /// The cache folder.
    public let directory: URL
    /// The most bytes kept; the least recently used files go first beyond it.
    public let maxBytes: Int64
    let manager: NetworkManager
    let index = Locked(Index())

    /// The index file's name in the folder.
    static let indexName = ".courier-index.json"

    /// Creates a cache, creating its folder if needed, and reads the index an earlier cache
    /// saved there. An unreadable index is dropped with the files it would have listed.
    ///
    /// - Parameters:
    ///   - directory: the folder for cached files.
    ///   - maxBytes: the total size bound.
    ///   - manager: downloads and revalidates videos.
    /// - Throws: when the folder cannot be created.
    public init(directory: URL, maxBytes: Int64 = 256 << 20, manager: NetworkManager) throws {
        self.directory = directory
        self.maxBytes = maxBytes
        self.manager = manager
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var saved =
            (try? Data(contentsOf: directory.appendingPathComponent(Self.indexName)))
            .flatMap { try? JSONDecoder().decode(Index.self, from: $0) } ?? Index()
        // Keep only records whose file is still there with the recorded size.
        saved.records = saved.records.filter { _, record in
            Self.size(of: directory.appendingPathComponent(record.file)) == record.size
                && FileManager.default.fileExists(atPath: directory.appendingPathComponent(record.file).path)
        }
        let listed = Set(saved.records.values.map(\.file))
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where name != Self.indexName && !listed.contains(name) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        let loaded = saved
        index.withLock { $0 = loaded }
    }

    /// The cached file for `key` (a URL string), if any; marks it recently used (seed `queryURLFromCache`).
    public func cachedFile(forKey key: String) -> URL? {
        index.withLock { index -> URL? in
            guard var record = index.records[key] else { return nil }
            index.clock += 1
            record.lastUse = index.clock
            index.records[key] = record
            return directory.appendingPathComponent(record.file)
        }
    }

    /// Stores bytes for `key` (seed `storeDataToCache`), keeping `fileExtension`.
    /// - Throws: when the file cannot be written.
    public func store(data: Data, forKey key: String, fileExtension: String, etag: String? = nil) throws {
        let temporary = directory.appendingPathComponent(".incoming-\(UUID().uuidString)")
        try data.write(to: temporary)
        try commit(temporary, forKey: key, fileExtension: fileExtension, etag: etag)
    }

    /// The video at `url`: from the cache after revalidation, or downloaded into it.
    ///
    /// - Parameters:
    ///   - url: the video's download URL.
    ///   - revalidate: ask the server with `If-None-Match` before using a cached file (default);
    ///     `false` uses a cached file without asking.
    ///   - progress: download progress.
    /// - Throws: `SocialError` (`storage`, `notFound` or `connectivity`).
    public func video(
        at url: URL, revalidate: Bool = true, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(SocialError) -> Entry {
        let key = url.absoluteString
        let cached = index.withLock { $0.records[key] }
        if let cached, !revalidate, let file = cachedFile(forKey: key) {
            return Entry(file: file, source: .cache, size: cached.size)
        }
        var request = URLRequest(url: url)
        if let etag = cached?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let temporary = directory.appendingPathComponent(".incoming-\(UUID().uuidString)")
        do {
            let response = try await manager.download(request, to: temporary, progress: progress)
            let file = try commit(
                temporary, forKey: key, fileExtension: url.pathExtension, etag: response.headers["ETag"])
            return Entry(file: file, source: .network, size: Self.size(of: file))
        } catch let error as CourierError where error.status == 304 {
            try? FileManager.default.removeItem(at: temporary)
            if let file = cachedFile(forKey: key), let cached {
                return Entry(file: file, source: .revalidated, size: cached.size)
            }
            throw SocialError(.storage, "the server answered 304 but the cached file is gone", status: 304)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw SocialError(error, storage: true)
        }
    }

    /// The total size of the cached files.
    public var totalSize: Int64 { index.withLock { $0.totalSize } }

    /// The keys cached, least recently used first.
    public var keys: [String] {
        index.withLock { $0.records.sorted { $0.value.lastUse < $1.value.lastUse }.map(\.key) }
    }

    /// Moves a downloaded file into place for `key` and evicts beyond `maxBytes`.
    @discardableResult
    func commit(_ temporary: URL, forKey key: String, fileExtension: String, etag: String?) throws -> URL {
        let name = Self.fileName(forKey: key, fileExtension: fileExtension)
        let destination = directory.appendingPathComponent(name)
        let size = Self.size(of: temporary)
        let evicted = try index.withLock { index -> [String] in
            // Renaming over the old file is atomic: a reader sees the old or the new file.
            if rename(temporary.path, destination.path) != 0 {
                try? FileManager.default.removeItem(at: temporary)
                throw SocialError(.storage, "cannot move the download into the cache (errno \(errno))")
            }
            index.clock += 1
            index.records[key] = Record(file: name, size: size, etag: etag, lastUse: index.clock)
            var evicted: [String] = []
            while index.totalSize > maxBytes, index.records.count > 1,
                let oldest = index.records.filter({ $0.key != key }).min(by: {
                    $0.value.lastUse < $1.value.lastUse
                })
            {
                index.records[oldest.key] = nil
                evicted.append(oldest.value.file)
            }
            // Saved under the lock, so saves land in the order of the changes. A failed save
            // costs only the cache's memory across restarts, not this download.
            try? JSONEncoder().encode(index).write(
                to: directory.appendingPathComponent(Self.indexName), options: .atomic)
            return evicted
        }
        for file in evicted {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(file))
        }
        return destination
    }

    /// A stable file name for a key: FNV-1a of the URL, with the extension kept.
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

    static func size(of file: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
