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
            fileSize(at: url)
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

/// A response body as delivered: whole in memory, as a stream, or (a download's) in a file.
public enum ResponseBody: Sendable {
    /// The bytes, in memory.
    case data(Data)
    /// The bytes as they arrive; read them once.
    case stream(ResponseStream)
    /// The file the bytes were written to, and how many there were: a download's body.
    case file(URL, byteCount: Int64)

    /// The in-memory bytes; empty for a stream or a file.
    public var data: Data {
        if case .data(let data) = self { return data }
        return Data()
    }
}
