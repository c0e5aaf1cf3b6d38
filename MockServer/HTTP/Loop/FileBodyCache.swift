import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small body files one loop has read, kept in memory so that serving one again costs one `stat`
/// instead of an open, a read and a close.
///
/// An entry is used only while the file's identity, size, modification and change times are those it
/// was read with; any write to the file changes its change time, which no one can set back. A file
/// changed in the last two seconds is read on every request and not kept: file system timestamps are
/// coarse, and two writes that close together could leave the same times (as git's "racy" entries).
/// Touched on its loop's thread only.
struct FileBodyCache {
    /// What `stat` says about a file; equal signatures mean unchanged content.
    struct Signature: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: timespec
        var changed: timespec

        static func == (lhs: Signature, rhs: Signature) -> Bool {
            lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
                && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
                && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
        }

        init?(_ info: stat) {
            guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            #if canImport(Darwin)
                modified = info.st_mtimespec
                changed = info.st_ctimespec
            #else
                modified = info.st_mtim
                changed = info.st_ctim
            #endif
        }

        /// Whether the file has not changed for long enough that a later write must change its times.
        var isSettled: Bool {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            return now.tv_sec - changed.tv_sec > 2 && now.tv_sec - modified.tv_sec > 2
        }
    }

    /// A class, so that noting a check does not write the dictionary again.
    private final class Entry {
        let signature: Signature
        let data: Data
        /// The loop's read count when the file was last found unchanged.
        var checkedAfter: UInt64

        init(signature: Signature, data: Data, checkedAfter: UInt64) {
            self.signature = signature
            self.data = data
            self.checkedAfter = checkedAfter
        }
    }

    /// The largest file kept; larger ones are streamed from disk.
    static let maxFileBytes: Int64 = 64 * 1024
    /// The most files kept per loop (at most 4 MiB per loop).
    static let maxEntries = 64

    private var entries: [String: Entry] = [:]
    /// The entry found last, and its path: most requests ask for the file the one before asked for,
    /// and comparing a path with the same string costs less than hashing it.
    private var lastPath = ""
    private var lastEntry: Entry?

    /// The content of the regular file at `path` when it is kept and unchanged; nil otherwise (the
    /// caller opens the file, and may offer it with ``keep(path:fd:size:reads:)``).
    ///
    /// A request brought by the loop's read number `arrivedWith` is answered without a `stat` when the
    /// file was found unchanged after that read (the loop's count of reads was `arrivedWith` or more
    /// then): a change made before the request was sent was made before that check. `reads` is the
    /// loop's count of reads now.
    mutating func cached(path: String, arrivedWith: UInt64, reads: UInt64) -> Data? {
        let entry: Entry
        if let last = lastEntry, lastPath == path {
            entry = last
        } else {
            guard let found = entries[path] else { return nil }
            (entry, lastPath, lastEntry) = (found, path, found)
        }
        if entry.checkedAfter >= arrivedWith { return entry.data }
        var info = stat()
        guard stat(path, &info) == 0, let signature = Signature(info), signature == entry.signature else {
            entries[path] = nil
            lastEntry = nil
            return nil
        }
        entry.checkedAfter = reads
        return entry.data
    }

    /// Reads and keeps the file open at `fd` (of `size` bytes, opened from `path`) when it is small and
    /// settled; returns its content then, nil otherwise (the descriptor is left open and unread).
    /// `reads` is the loop's count of reads now (the file was opened after them).
    mutating func keep(path: String, fd: Int32, size: Int64, reads: UInt64) -> Data? {
        guard size <= Self.maxFileBytes else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, let signature = Signature(info), signature.size == size,
            signature.isSettled
        else { return nil }
        var data = Data(count: Int(size))
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = SocketSystem.readFile(
                    fd, UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]), offset: Int64(offset))
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        // Read while being written? Then it is not what the signature describes.
        var after = stat()
        guard complete, fstat(fd, &after) == 0, Signature(after) == signature else { return nil }
        if entries.count >= Self.maxEntries { entries.removeAll(keepingCapacity: true) }
        entries[path] = Entry(signature: signature, data: data, checkedAfter: reads)
        lastEntry = nil
        return data
    }
}
