import Courier
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Feeds the request body to libcurl's read callback, chunk by chunk. A file is read
/// straight into libcurl's buffer, so it is never held in memory whole.
///
/// Used only by the thread driving the multi handle (holding the loop's engine lock), once the
/// transfer is submitted.
final class BodySource {
    private enum Storage {
        case none
        case data(Data, offset: Int)
        case file(fd: Int32)
        case stream(BodyStream, reader: any BodyStreamReader, pending: Data)
    }

    /// One thread at a time, so not checked for exclusive access at run time.
    @exclusivity(unchecked) private var storage: Storage

    /// Opens the body's source.
    /// - Throws: `CourierError.Code.invalidBody` when the file or stream cannot be opened.
    init(_ body: RequestBody) throws {
        switch body {
        case .empty:
            storage = .none
        case .data(let data):
            storage = .data(data, offset: 0)
        case .file(let url):
            let fd = open(url.path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw CourierError(.invalidBody, "cannot open body file \(url.path): \(errnoText())")
            }
            storage = .file(fd: fd)
        case .stream(let stream):
            do {
                storage = .stream(stream, reader: try stream.makeReader(), pending: Data())
            } catch {
                throw CourierError(
                    .invalidBody, "cannot open body stream: \(error)", underlying: error as? CourierError)
            }
        }
    }

    /// Copies up to `capacity` bytes into `buffer`; 0 means the end of the body.
    /// - Throws: a message when the source fails.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws -> Int {
        switch storage {
        case .none:
            return 0
        case .data(let data, let offset):
            let count = min(capacity, data.count - offset)
            guard count > 0 else { return 0 }
            let start = data.startIndex + offset
            data.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), from: start..<(start + count))
            storage = .data(data, offset: offset + count)
            return count
        case .file(let fd):
            while true {
                let count = SystemFile.read(fd, buffer, capacity)
                if count >= 0 { return count }
                if errno != EINTR {
                    throw BodySourceError(message: "reading the body file failed: \(errnoText())")
                }
            }
        case .stream(let stream, let reader, var pending):
            if pending.isEmpty {
                do {
                    pending = try reader.read(upTo: capacity)
                } catch {
                    throw BodySourceError(message: "the body stream failed: \(error)")
                }
            }
            let count = min(capacity, pending.count)
            pending.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), count: count)
            pending.removeFirst(count)
            storage = .stream(stream, reader: reader, pending: pending)
            return count
        }
    }

    /// Goes back to the start, which libcurl asks for when it must send the body again
    /// (a 307/308 redirect, or a reused connection that turned out to be closed).
    /// Returns false when the body cannot be replayed.
    func rewind() -> Bool {
        switch storage {
        case .none:
            return true
        case .data(let data, _):
            storage = .data(data, offset: 0)
            return true
        case .file(let fd):
            return lseek(fd, 0, SEEK_SET) == 0
        case .stream(let stream, let reader, _):
            guard stream.isReplayable, let fresh = try? stream.makeReader() else { return false }
            reader.close()
            storage = .stream(stream, reader: fresh, pending: Data())
            return true
        }
    }

    /// Releases the file or stream. Idempotent.
    func close() {
        switch storage {
        case .file(let fd): SystemFile.close(fd)
        case .stream(_, let reader, _): reader.close()
        case .none, .data: break
        }
        storage = .none
    }

    deinit { close() }
}

/// A failure reading the request body.
struct BodySourceError: Error {
    var message: String
}

/// The text for the current `errno`.
func errnoText() -> String {
    let code = errno
    return "\(String(cString: strerror(code))) (errno \(code))"
}
