import Courier
import CourierCache
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A disk cache of downloaded videos keyed by URL, built on `HTTPCache`.
///
/// Files keep their extension, the total size is bounded with least-recently-used
/// eviction, and a cached file is revalidated (`If-None-Match` or `If-Modified-Since`) before
/// use: a `304` serves the cached file without downloading it again. Downloads stream to
/// disk. Safe to use from many tasks at once. The cache's index is saved in the folder, so a
/// new `VideoCache` on the same folder finds what an earlier one cached; files the index
/// does not list (a download cut short by a crash) are deleted, and an unreadable index
/// starts the cache empty.
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

    /// The cache folder.
    public let directory: URL
    /// The most bytes kept; the least recently used files go first beyond it.
    public let maxBytes: Int64
    /// The HTTP cache the videos live in.
    public let cache: HTTPCache
    /// The given manager with `cache` as its innermost interceptor.
    let manager: NetworkManager

    /// Creates a cache, creating its folder if needed, and reads the index an earlier cache
    /// saved there. An unreadable index is dropped with the files it would have listed.
    ///
    /// - Parameters:
    ///   - directory: the folder for cached files.
    ///   - maxBytes: the total size bound.
    ///   - manager: downloads and revalidates videos (its interceptors, such as
    ///     authentication, run outside the cache).
    /// - Throws: `CourierError` when the folder cannot be created.
    public init(directory: URL, maxBytes: Int64 = 256 << 20, manager: NetworkManager) throws {
        self.directory = directory
        self.maxBytes = maxBytes
        let cache = try HTTPCache(directory: directory, maxBytes: maxBytes)
        self.cache = cache
        var settings = manager.settings
        settings.interceptors.append(cache)
        self.manager = NetworkManager(transport: manager.transport, settings: settings)
    }

    /// The cached file for `key` (a URL string), if any; marks it recently used.
    public func cachedFile(forKey key: String) -> URL? { cache.cachedFile(forKey: key) }

    /// Stores bytes for `key`, keeping `fileExtension`; `etag` lets a later `video(at:)`
    /// revalidate them.
    /// - Throws: `SocialError` `.storage` when the file cannot be written.
    public func store(data: Data, forKey key: String, fileExtension: String, etag: String? = nil) throws {
        let temporary = cache.temporaryFile()
        do {
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw SocialError(.storage, "cannot write \(key) to the cache: \(error.localizedDescription)")
        }
        var headers: HTTPHeaders = ["Content-Type": "application/octet-stream"]
        if let etag { headers.add(name: "ETag", value: etag) }
        guard cache.adopt(temporary, forKey: key, fileExtension: fileExtension, headers: headers) != nil
        else {
            throw SocialError(.storage, "cannot move \(key) into the cache")
        }
    }

    /// The video at `url`: from the cache after revalidation, or downloaded into it.
    ///
    /// - Parameters:
    ///   - url: the video's download URL.
    ///   - revalidate: ask the server before using a cached file (default); `false` uses a
    ///     cached file without asking.
    ///   - progress: download progress.
    /// - Throws: `SocialError` (`storage`, `notFound` or `connectivity`).
    public func video(
        at url: URL, revalidate: Bool = true, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(SocialError) -> Entry {
        let key = url.absoluteString
        if !revalidate, let file = cachedFile(forKey: key) {
            return Entry(file: file, source: .cache, size: cache.cachedSize(forKey: key) ?? 0)
        }
        var request = URLRequest(url: url)
        // A stored video is always checked with the server before use.
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        let temporary = cache.temporaryFile()
        defer {
            // A fresh name each time: a failed download's resume record could never be used again.
            try? FileManager.default.removeItem(at: temporary)
            try? FileManager.default.removeItem(at: NetworkManager.resumeRecordURL(for: temporary))
        }
        do {
            let response = try await manager.download(request, to: temporary, progress: progress)
            let file: URL?
            switch response.source {
            case .network:
                // Kept even without validators, as a file the app asked to cache.
                file = cache.adopt(
                    temporary, forKey: key, fileExtension: url.pathExtension, headers: response.headers)
            case .cache, .revalidated:
                file = cachedFile(forKey: key)
            }
            guard let file else {
                throw SocialError(.storage, "cannot keep \(url.lastPathComponent) in the cache")
            }
            return Entry(
                file: file, source: Source(rawValue: response.source.rawValue) ?? .network,
                size: cache.cachedSize(forKey: key) ?? 0)
        } catch let error as SocialError {
            throw error
        } catch {
            throw SocialError(error, storage: true)
        }
    }

    /// The total size of the cached files.
    public var totalSize: Int64 { cache.totalSize }

    /// The keys cached, least recently used first.
    public var keys: [String] { cache.keys }
}
