import Foundation

/// Writes a download's body into its file: the consumer of `NetworkManager.download`, above the
/// transport, so every transport's body lands in the file the same way.
enum DownloadFile {
    /// Refuses, before anything is sent, a file that cannot be written: an existing one without
    /// write permission, or a new one in a folder that does not exist or cannot be written.
    /// Creates nothing: the file is opened once the response head has arrived.
    /// - Throws: `CourierError.Code.fileWriteFailed`.
    static func checkWritable(_ url: URL, request: TransportRequest) throws {
        let path = url.path
        let writable =
            access(path, F_OK) == 0
            ? access(path, W_OK) == 0
            : access(url.deletingLastPathComponent().path, W_OK | X_OK) == 0
        guard writable else {
            let reason = String(cString: strerror(errno))
            throw CourierError(
                .fileWriteFailed, "cannot create response file \(path): \(reason)", request: request)
        }
    }

    /// Writes the exchange's body into `url` after its first `keeping` bytes (0: the file is
    /// replaced), chunk by chunk as it arrives.
    /// - Parameter removingOnFailure: whether a body cut part way removes the file (else the
    ///   bytes written stay, for a resume).
    /// - Returns: the bytes in the file.
    /// - Throws: `CourierError`: `.fileWriteFailed`, or what ended the body.
    static func write(
        _ exchanged: Response<Void>, to url: URL, keeping: Int64, removingOnFailure: Bool
    ) async throws -> Int64 {
        let request = exchanged.request
        let handle = try open(url, keeping: keeping, request: request)
        var count = keeping
        do {
            switch exchanged.body {
            case .data(let data):
                try append(data, to: handle, url, request)
                count += Int64(data.count)
            case .stream(let stream):
                do {
                    for try await chunk in stream {
                        try append(chunk, to: handle, url, request)
                        count += Int64(chunk.count)
                    }
                } catch {
                    stream.cancel()
                    throw error
                }
            case .file(let source, _):
                let data = try Data(contentsOf: source)
                try append(data, to: handle, url, request)
                count += Int64(data.count)
            }
            // A close that fails may have lost what was written: the download failed.
            try handle.close()
        } catch {
            try? handle.close()  // allowed: the download has already failed with `error`
            if removingOnFailure { try? FileManager.default.removeItem(at: url) }  // allowed: it throws
            throw CourierError.wrapping(error, request: request, foreign: .fileWriteFailed)
        }
        return count
    }

    /// The file opened for writing after its first `keeping` bytes, cut there.
    private static func open(_ url: URL, keeping: Int64, request: TransportRequest) throws -> FileHandle {
        do {
            if keeping == 0 {
                guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                    throw CourierError(
                        .fileWriteFailed, "cannot create response file \(url.path)", request: request)
                }
                return try FileHandle(forWritingTo: url)
            }
            let handle = try FileHandle(forWritingTo: url)
            let size = Int64(try handle.seekToEnd())
            guard size >= keeping else {
                try? handle.close()  // allowed: only read from; the error below is thrown
                throw CourierError(
                    .fileWriteFailed,
                    "cannot resume \(url.path): it has \(size) bytes, fewer than \(keeping)",
                    request: request)
            }
            try handle.truncate(atOffset: UInt64(keeping))
            try handle.seek(toOffset: UInt64(keeping))
            return handle
        } catch let error as CourierError {
            throw error
        } catch {
            throw CourierError(
                .fileWriteFailed, "cannot open \(url.path): \(error)", request: request, underlying: error)
        }
    }

    private static func append(_ data: Data, to handle: FileHandle, _ url: URL, _ request: TransportRequest)
        throws
    {
        do {
            try handle.write(contentsOf: data)
        } catch {
            throw CourierError(
                .fileWriteFailed, "cannot write \(url.path): \(error)", request: request, underlying: error)
        }
    }
}
