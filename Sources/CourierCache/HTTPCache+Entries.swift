import Courier
import Foundation

/// Direct access to stored bodies, for caches of files built on `HTTPCache`.
extension HTTPCache {
    /// The stored body file for `key` (a URL string), if any; marks it recently used.
    package func cachedFile(forKey key: String) -> URL? {
        store.record(forKey: key).flatMap { store.use($0.id) }.map { store.file(of: $0) }
    }

    /// The stored body's size for `key`, if any.
    package func cachedSize(forKey key: String) -> Int64? { store.record(forKey: key)?.size }

    /// The keys stored, least recently used first.
    package var keys: [String] { store.keys }

    /// A fresh file in the cache folder to write a body into before `adopt`.
    package func temporaryFile() -> URL { store.temporaryFile() }

    /// Stores the body in `file` (which is moved, so it should come from `temporaryFile()`)
    /// for `key` as a `status` response with `headers`, keeping `fileExtension` on the stored file.
    /// It replaces every variant stored for `key`.
    /// - Returns: the stored file, or nil when it could not be stored.
    @discardableResult
    package func adopt(
        _ file: URL, forKey key: String, fileExtension: String, status: Int = 200, headers: HTTPHeaders
    ) -> URL? {
        let time = Date().timeIntervalSince1970
        let record = CachedResponse(
            key: key, file: CacheStore.fileName(forKey: key, fileExtension: fileExtension), size: 0,
            status: status, headers: headers.map { [$0.name, $0.value] }, vary: [:], requestTime: time,
            responseTime: time, lastUse: 0)
        return store.commit(file, as: record, replacingVariants: true) ? store.file(of: record) : nil
    }
}
