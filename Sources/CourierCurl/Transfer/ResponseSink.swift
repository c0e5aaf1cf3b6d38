import Courier
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Takes the response body from libcurl's write callback: into memory up to a limit,
/// or straight into a file descriptor.
///
/// Used only by the thread driving the multi handle (holding the loop's engine lock), once the
/// transfer is submitted.
final class ResponseSink {
    /// Why a chunk was refused.
    enum Refusal: Error, Equatable {
        case tooLarge(limit: Int64)
        case writeFailed(String)
    }

    private enum Storage {
        case memory(Data, limit: Int64)
        case file(fd: Int32, url: URL, count: Int64)
        /// A resumable file destination, decided by the status in `begin(status:)`.
        case pending(ResponseDestination, limit: Int64)
        case closed
    }

    private var storage: Storage
    /// A `.file` destination that `begin(status:)` created or cut: `discard()` removes it.
    private var opened: URL?

    /// Prepares the destination. A file is opened (created, cut) by `begin(status:)`, once the
    /// final head has arrived, so that a request that never gets an answer leaves an existing
    /// file as it was.
    /// - Throws: `CourierError.Code.fileWriteFailed` when a `.file` cannot be written.
    init(destination: ResponseDestination, maxResponseBytes: Int64) throws {
        switch destination {
        case .memory:
            storage = .memory(Data(), limit: maxResponseBytes)
        case .resumableFile:
            storage = .pending(destination, limit: maxResponseBytes)
        case .file:
            // Refused before sending, as when the file was created here.
            try destination.checkWritable()
            storage = .pending(destination, limit: maxResponseBytes)
        }
    }

    /// The final response head arrived: a `.resumableFile` destination now opens its file (cut
    /// to the bytes it keeps) or turns to memory. Does nothing for other destinations.
    /// - Throws: `Refusal.writeFailed` when the file cannot be opened or is too short.
    func begin(status: Int) throws(Refusal) {
        guard case .pending(let destination, let limit) = storage else { return }
        switch destination.target(status: status) {
        case .memory:
            storage = .memory(Data(), limit: limit)
        case .file(let url, let keeping):
            let fd = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC | (keeping > 0 ? 0 : O_TRUNC), 0o644)
            guard fd >= 0 else { throw .writeFailed("cannot open \(url.path): \(errnoText())") }
            let size = lseek(fd, 0, SEEK_END)
            guard size >= keeping, ftruncate(fd, off_t(keeping)) == 0, lseek(fd, 0, SEEK_END) == keeping
            else {
                let reason =
                    size >= 0 && size < keeping ? "it has \(size) bytes, fewer than \(keeping)" : errnoText()
                SystemFile.close(fd)
                throw .writeFailed("cannot resume \(url.path): \(reason)")
            }
            storage = .file(fd: fd, url: url, count: keeping)
            if case .file = destination { opened = url }
        }
    }

    /// Takes one chunk.
    /// - Throws: `Refusal` when the chunk passes the memory limit or cannot be written.
    func write(_ chunk: UnsafeRawBufferPointer) throws(Refusal) {
        switch storage {
        case .memory(var data, let limit):
            guard Int64(data.count) + Int64(chunk.count) <= limit else { throw .tooLarge(limit: limit) }
            storage = .closed  // avoid a copy-on-write of `data` while it is appended to
            data.append(contentsOf: chunk)
            storage = .memory(data, limit: limit)
        case .file(let fd, let url, let count):
            guard let base = chunk.baseAddress else { return }
            var offset = 0
            while offset < chunk.count {
                let written = SystemFile.write(fd, base + offset, chunk.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw .writeFailed("\(url.path): \(errnoText())")
                }
                offset += written
            }
            storage = .file(fd: fd, url: url, count: count + Int64(chunk.count))
        case .pending:
            throw .writeFailed("body bytes arrived before the response head")
        case .closed:
            throw .writeFailed("the response sink is closed")
        }
    }

    /// Closes a file destination and returns the body.
    /// - Throws: `Refusal.writeFailed` when closing the file reports an error.
    func finish() throws(Refusal) -> ResponseBody {
        switch storage {
        case .memory(let data, _):
            storage = .closed
            return .data(data)
        case .file(let fd, let url, let count):
            storage = .closed
            if SystemFile.close(fd) != 0 { throw .writeFailed("closing \(url.path): \(errnoText())") }
            return .file(url, byteCount: count)
        case .pending:
            storage = .closed
            return .data(Data())
        case .closed:
            throw .writeFailed("the response sink is closed")
        }
    }

    /// After a failed transfer: removes a `.file` destination that this transfer created or
    /// cut, so that no partial body is left to be taken for a whole one. A resumable file keeps
    /// its bytes for the next attempt.
    func discard() {
        close()
        if let opened { unlink(opened.path) }
        opened = nil
    }

    /// Releases the file descriptor without reporting. Idempotent.
    func close() {
        if case .file(let fd, _, _) = storage { SystemFile.close(fd) }
        storage = .closed
    }

    deinit { close() }
}
