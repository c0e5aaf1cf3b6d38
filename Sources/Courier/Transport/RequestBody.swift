import Foundation

/// The body of a request: nothing, bytes in memory, a file, or a stream.
public enum RequestBody: Sendable {
    /// No body.
    case empty
    /// Bytes in memory.
    case data(Data)
    /// The contents of a file, read in chunks as they are sent.
    case file(URL)
    /// Bytes produced by a stream, read in chunks as they are sent.
    case stream(BodyStream)

    /// The length in bytes, when known before sending.
    public var length: Int64? {
        switch self {
        case .empty: 0
        case .data(let data): Int64(data.count)
        case .file(let url):
            (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?
                .int64Value
        case .stream(let stream): stream.length
        }
    }

    /// Whether the body can be sent again, as a retry or a redirect needs.
    public var isReplayable: Bool {
        switch self {
        case .empty, .data, .file: true
        case .stream(let stream): stream.isReplayable
        }
    }
}

/// A body produced chunk by chunk, such as a multipart form whose file parts are read
/// from disk.
public struct BodyStream: Sendable {
    /// The total length in bytes, when known. Transports send `Content-Length` when it is
    /// known and chunked transfer coding when it is not.
    public var length: Int64?
    /// Whether `makeReader` may be called more than once.
    public var isReplayable: Bool
    private let factory: @Sendable () throws -> any BodyStreamReader

    /// Creates a stream.
    ///
    /// - Parameters:
    ///   - length: the total length, if known.
    ///   - isReplayable: whether `makeReader` can be called again to start over.
    ///   - makeReader: returns a fresh reader positioned at the start.
    public init(
        length: Int64?,
        isReplayable: Bool = true,
        makeReader: @escaping @Sendable () throws -> any BodyStreamReader
    ) {
        self.length = length
        self.isReplayable = isReplayable
        self.factory = makeReader
    }

    /// Returns a reader positioned at the start of the body.
    /// - Throws: whatever opening the underlying source throws.
    public func makeReader() throws -> any BodyStreamReader { try factory() }

    /// Reads the whole stream into memory. Only for small bodies and tests.
    package func collect() throws -> Data {
        let reader = try makeReader()
        defer { reader.close() }
        var result = Data()
        while true {
            let chunk = try reader.read(upTo: 64 * 1024)
            if chunk.isEmpty { return result }
            result.append(chunk)
        }
    }
}

/// Reads a body stream sequentially. Used by one transfer at a time, from one thread
/// at a time.
public protocol BodyStreamReader: AnyObject {
    /// Returns up to `maxLength` bytes; an empty result means the end.
    /// - Throws: when the underlying source fails.
    func read(upTo maxLength: Int) throws -> Data
    /// Releases the underlying source. Called once, when the transfer ends.
    func close()
}

/// Where a response body goes.
public enum ResponseDestination: Sendable, Hashable {
    /// Into memory, up to `TransferOptions.maxResponseBytes`.
    case memory
    /// Streamed into a file at this URL, created or truncated when the final response head
    /// arrives. A request that gets no answer leaves an existing file as it was; one that fails
    /// part way through the body removes the file, so a partial body is never left behind.
    case file(URL)
    /// Streamed into a file at this URL so that an interrupted download can be finished:
    /// - a `206 Partial Content` body is written after the file's first `offset` bytes (the
    ///   file is cut to `offset` bytes first; one shorter than `offset` fails with
    ///   `.fileWriteFailed`);
    /// - any other 2xx body replaces the file, as with `.file`;
    /// - any other status's body goes to memory, up to `TransferOptions.maxResponseBytes`,
    ///   and the file is left as it was.
    ///
    /// Unlike `.file`, a transfer that fails part way keeps the bytes already written.
    /// `NetworkManager.download(_:to:progress:)` uses it to resume.
    case resumableFile(URL, offset: Int64)
}

extension ResponseDestination {
    /// Where the body of a response with `status` goes.
    package enum Target: Equatable {
        /// Into memory.
        case memory
        /// Into the file, after its first `keeping` bytes (0: the file is replaced).
        case file(URL, keeping: Int64)
    }

    /// Where the body of a response with `status` goes, for this destination.
    /// Refuses, before anything is sent, a `.file` destination that cannot be written: an
    /// existing file without write permission, or a new one in a folder that does not exist or
    /// cannot be written. Creates nothing: the file is opened on the final response head.
    /// - Throws: `CourierError.Code.fileWriteFailed`.
    package func checkWritable() throws(CourierError) {
        guard case .file(let url) = self else { return }
        let path = url.path
        let writable =
            access(path, F_OK) == 0
            ? access(path, W_OK) == 0
            : access(url.deletingLastPathComponent().path, W_OK | X_OK) == 0
        guard writable else {
            let reason = String(cString: strerror(errno))
            throw CourierError(.fileWriteFailed, "cannot create response file \(path): \(reason)")
        }
    }

    package func target(status: Int) -> Target {
        switch self {
        case .memory: .memory
        case .file(let url): .file(url, keeping: 0)
        case .resumableFile(let url, let offset):
            status == 206
                ? .file(url, keeping: max(0, offset))
                : (200..<300).contains(status) ? .file(url, keeping: 0) : .memory
        }
    }
}

/// A response body as delivered.
public enum ResponseBody: Sendable, Hashable {
    /// The bytes, in memory.
    case data(Data)
    /// The file the bytes were written to, and how many there were.
    case file(URL, byteCount: Int64)

    /// The in-memory bytes; empty for a file body.
    public var data: Data {
        if case .data(let data) = self { return data }
        return Data()
    }
}
