import Courier
import Endpoints
import Foundation
import MockServer
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
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 2, "the evicted file is deleted: \(files)")
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
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
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
