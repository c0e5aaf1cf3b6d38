import CourierPrimitives
import Foundation

/// Where a cache writes a body as it streams past: a temporary file, bounded by the cache's
/// size. Written by the stream's one reader; closed once, by whoever sees the end.
final class BodySink: Sendable {
    private struct State {
        var handle: FileHandle?
        var written: Int64 = 0
        var failed = false
    }

    private let limit: Int64
    private let state: Locked<State>

    /// Creates the file; nil when it cannot be.
    init?(_ file: URL, limit: Int64) {
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: file)  // allowed: nil, the body is not stored
        else { return nil }
        self.limit = limit
        state = Locked(State(handle: handle))
    }

    /// Appends `chunk`; past the limit or on a failed write, the body is given up.
    func write(_ chunk: Data) {
        state.withLock { state in
            guard !state.failed, let handle = state.handle else { return }
            state.written += Int64(chunk.count)
            guard state.written <= limit else { return state.failed = true }
            if (try? handle.write(contentsOf: chunk)) == nil { state.failed = true }  // allowed: not stored
        }
    }

    /// Closes the file. Returns whether it holds the whole body.
    func close() -> Bool {
        state.withLock { state in
            // A close that fails may have lost bytes: the body is then not kept.
            if let handle = state.handle, (try? handle.close()) == nil {  // allowed: not stored then
                state.failed = true
            }
            state.handle = nil
            return !state.failed
        }
    }
}
