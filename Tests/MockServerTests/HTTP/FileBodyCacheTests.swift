import Foundation
import Testing

@testable import MockServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A kept body file is checked with `stat` again for any request read after its last check, and only
/// a request read before that check is answered from it without one.
struct FileBodyCacheTests {
    /// A settled file (changed more than two seconds ago, so that the cache keeps it) in a new folder.
    private func settledFile(_ content: String) async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "file-body-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("body.json")
        try Data(content.utf8).write(to: file)
        try await Task.sleep(for: .seconds(3))
        return file
    }

    /// Keeps the file as a loop would after `reads` reads; returns whether it was kept.
    private func keep(_ cache: inout FileBodyCache, _ file: URL, reads: UInt64) -> Bool {
        let fd = open(file.path, O_RDONLY)
        defer { close(fd) }
        var info = stat()
        guard fd >= 0, fstat(fd, &info) == 0 else { return false }
        return cache.keep(path: file.path, fd: fd, size: Int64(info.st_size), reads: reads) != nil
    }

    @Test func aRequestReadAfterTheLastCheckSeesAChangeMadeBeforeIt() async throws {
        let file = try await settledFile(#"{"v":1}"#)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        var cache = FileBodyCache()
        #expect(keep(&cache, file, reads: 5))

        // Requests read by read 5 or earlier: checked after them, served as kept.
        #expect(cache.cached(path: file.path, arrivedWith: 5, reads: 5) == Data(#"{"v":1}"#.utf8))
        #expect(cache.cached(path: file.path, arrivedWith: 3, reads: 6) == Data(#"{"v":1}"#.utf8))

        // Rewritten in place, same size, then a request read by read 7: checked again, not served.
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data(#"{"v":2}"#.utf8))
        try handle.close()
        #expect(cache.cached(path: file.path, arrivedWith: 7, reads: 7) == nil)
        // Dropped: a request read earlier is not served the old content either.
        #expect(cache.cached(path: file.path, arrivedWith: 1, reads: 7) == nil)
    }

    @Test func aCheckCoversOnlyTheReadsBeforeIt() async throws {
        let file = try await settledFile("0123456789")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        var cache = FileBodyCache()
        #expect(keep(&cache, file, reads: 1))
        // Checked after read 10: serves requests of reads up to 10 ...
        #expect(cache.cached(path: file.path, arrivedWith: 10, reads: 10) == Data("0123456789".utf8))
        #expect(cache.cached(path: file.path, arrivedWith: 10, reads: 11) == Data("0123456789".utf8))
        // ... and a request of read 12 after a removal finds nothing.
        try FileManager.default.removeItem(at: file)
        #expect(cache.cached(path: file.path, arrivedWith: 12, reads: 12) == nil)
    }
}
