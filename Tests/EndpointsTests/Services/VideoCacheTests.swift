import Courier
import Endpoints
import Foundation
import MockServer
import SocialBackend
import Testing

@Suite("VideoCache")
struct VideoCacheTests {
    static func manager() -> NetworkManager { NetworkManager(transport: TestTransport.curl.make()) }

    @Test("least recently used files are evicted beyond the size bound; extensions are kept")
    func lru() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try VideoCache(directory: folder, maxBytes: 250, manager: Self.manager())
        try cache.store(data: Data(count: 100), forKey: "http://h/a.mp4", fileExtension: "mp4")
        try cache.store(data: Data(count: 100), forKey: "http://h/b.mp4", fileExtension: "mp4")
        #expect(cache.cachedFile(forKey: "http://h/a.mp4")?.pathExtension == "mp4")
        try cache.store(data: Data(count: 100), forKey: "http://h/c.mov", fileExtension: "mov")
        #expect(cache.cachedFile(forKey: "http://h/b.mp4") == nil, "b was least recently used")
        #expect(cache.cachedFile(forKey: "http://h/a.mp4") != nil)
        #expect(cache.totalSize == 200)
        let files = try cachedFiles(in: folder)
        #expect(files.count == 2, "the evicted file is deleted: \(files)")
    }

    /// The folder's video files, without the saved index.
    private func cachedFiles(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0 != ".courier-index.json"
        }
    }

    @Test("a new cache on the same folder finds what an earlier one cached; leftovers are deleted")
    func indexSurvivesARestart() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let first = try VideoCache(directory: folder, maxBytes: 1000, manager: Self.manager())
            try first.store(
                data: Data(count: 100), forKey: "http://h/a.mp4", fileExtension: "mp4", etag: "\"a1\"")
            try first.store(data: Data(count: 50), forKey: "http://h/b.mov", fileExtension: "mov")
        }
        // A download cut short by a crash leaves an incoming file behind.
        try Data(count: 10).write(to: folder.appendingPathComponent(".incoming-crashed"))
        let second = try VideoCache(directory: folder, maxBytes: 1000, manager: Self.manager())
        #expect(second.keys == ["http://h/a.mp4", "http://h/b.mov"])
        #expect(second.totalSize == 150)
        #expect(second.cachedFile(forKey: "http://h/a.mp4")?.pathExtension == "mp4")
        #expect(try cachedFiles(in: folder).count == 2, "the leftover is deleted")
    }

    @Test("an unreadable index is dropped with the files it listed")
    func corruptIndexStartsEmpty() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let first = try VideoCache(directory: folder, maxBytes: 1000, manager: Self.manager())
            try first.store(data: Data(count: 100), forKey: "http://h/a.mp4", fileExtension: "mp4")
        }
        try Data("{not json".utf8).write(to: folder.appendingPathComponent(".courier-index.json"))
        let second = try VideoCache(directory: folder, maxBytes: 1000, manager: Self.manager())
        #expect(second.keys.isEmpty)
        #expect(second.totalSize == 0)
        #expect(try cachedFiles(in: folder).isEmpty)
    }

    @Test("concurrent stores keep the index and the disk consistent")
    func concurrentStores() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try VideoCache(directory: folder, maxBytes: 1000, manager: Self.manager())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try cache.store(
                        data: Data(count: 100), forKey: "http://h/\(index % 15).mp4", fileExtension: "mp4")
                }
            }
            try await group.waitForAll()
        }
        #expect(cache.totalSize <= 1000)
        let files = try cachedFiles(in: folder)
        #expect(files.count == cache.keys.count)
    }

    @Test("a second download is revalidated with If-None-Match and served from the cache")
    func etagRevalidation() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withSocialServer(seed: 2) { server, _ in
            let manager = NetworkManager(transport: TestTransport.curl.make(), baseURL: server.baseURL)
            let cache = try VideoCache(directory: folder, manager: manager)
            let url = server.baseURL.appendingPathComponent("storage/videos/seed-002.mp4")
            let first = try await cache.video(at: url)
            let second = try await cache.video(at: url)
            let offline = try await cache.video(at: url, revalidate: false)
            #expect(first.source == .network)
            #expect(second.source == .revalidated)
            #expect(offline.source == .cache)
            #expect(first.file.pathExtension == "mp4")
            #expect(try Data(contentsOf: second.file).count == 32 * 1024)
            let missing = await #expect(throws: SocialError.self) {
                try await cache.video(at: server.baseURL.appendingPathComponent("storage/videos/none.mp4"))
            }
            #expect(missing?.category == .notFound)
        }
    }
}
