import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Pact files on disk: one file per consumer–provider pair, merged across test runs and written
/// atomically, safely from several processes at once.
///
/// ```swift
/// let interaction = PactInteraction(
///     description: "a request for the notes",
///     request: PactRequest(method: "GET", path: "/notes"),
///     response: PactResponse(status: 200, body: .json(.array([]))))
/// let pact = Pact(consumer: "NotesApp", provider: "NotesAPI", interactions: [interaction])
/// let folder = FileManager.default.temporaryDirectory
/// try PactFile.merge(pact, into: folder.appendingPathComponent(PactFile.name(for: pact)))
/// ```
public enum PactFile {
    /// The usual file name for a pact, `CONSUMER-PROVIDER.json`, with characters other than
    /// letters, digits, `-`, `_` and `.` replaced by `_`.
    public static func name(for pact: Pact) -> String {
        func safe(_ text: String) -> String {
            String(text.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
        }
        return "\(safe(pact.consumer))-\(safe(pact.provider)).json"
    }

    /// Merges `pact` into the file at `url`: an interaction with the same description and provider
    /// states as one in the file replaces it; the file's others are kept; new ones are added. The
    /// file is created if absent.
    ///
    /// Writers take an exclusive lock on `FILE.lock` (so two processes merging at once both keep
    /// their interactions), write a temporary file beside it and rename it over the old one (so a
    /// reader never sees half a file).
    ///
    /// - Throws: `PactError` when the file holds another consumer's or provider's pact, is not a
    ///   pact, or cannot be written.
    public static func merge(_ pact: Pact, into url: URL) throws(PactError) {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw PactError(
                path: directory.path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        let lock = try FileLock(path: url.path + ".lock")
        defer { lock.release() }
        var merged = pact
        if FileManager.default.fileExists(atPath: url.path) {
            let existing = try Pact(contentsOf: url)
            guard existing.consumer == pact.consumer, existing.provider == pact.provider else {
                throw PactError(
                    path: url.path,
                    reason:
                        "holds the pact of \(existing.consumer) with \(existing.provider), not of \(pact.consumer) with \(pact.provider)"
                )
            }
            merged = existing.merging(pact)
        }
        try write(merged.encoded(), to: url)
    }

    /// Writes `data` to a temporary file in `url`'s folder, flushes it, and renames it to `url`.
    static func write(_ data: Data, to url: URL) throws(PactError) {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            throw PactError(path: temporary.path, reason: "cannot be created: \(errorText())")
        }
        var failure: String?
        do {
            try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: data)
        } catch {
            failure = error.localizedDescription
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errorText() }
        close(descriptor)
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = errorText() }
        if let failure {
            unlink(temporary.path)
            throw PactError(path: url.path, reason: "cannot be written: \(failure)")
        }
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}

extension Pact {
    /// This pact with `other`'s interactions merged in: each replaces the one with the same
    /// description and provider states, or is added at the end.
    public func merging(_ other: Pact) -> Pact {
        var merged = self
        for interaction in other.interactions {
            if let index = merged.interactions.firstIndex(where: { $0.isSameInteraction(as: interaction) }) {
                merged.interactions[index] = interaction
            } else {
                merged.interactions.append(interaction)
            }
        }
        merged.metadata.merge(other.metadata) { $1 }
        return merged
    }
}

/// An exclusive `flock(2)` on a lock file, held until released.
struct FileLock {
    let descriptor: Int32

    init(path: String) throws(PactError) {
        let descriptor = open(path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else {
            throw PactError(path: path, reason: "cannot be opened: \(PactFile.errorText())")
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let reason = PactFile.errorText()
                close(descriptor)
                throw PactError(path: path, reason: "cannot be locked: \(reason)")
            }
        }
        self.descriptor = descriptor
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
