import Courier
import Foundation

/// Takes a whole response body from libcurl's write callback into memory, up to a limit.
///
/// Used only by the thread driving the multi handle (holding the loop's engine lock), once the
/// transfer is submitted.
struct ResponseSink {
    /// Why a chunk was refused.
    enum Refusal: Error, Equatable {
        case tooLarge(limit: Int64)
    }

    private var data = Data()
    private let limit: Int64

    /// Prepares an empty body of at most `maxResponseBytes` bytes.
    init(maxResponseBytes: Int64) {
        limit = maxResponseBytes
    }

    /// Takes one chunk.
    /// - Throws: `Refusal.tooLarge` when the chunk passes the limit.
    mutating func write(_ chunk: UnsafeRawBufferPointer) throws(Refusal) {
        guard Int64(data.count) + Int64(chunk.count) <= limit else { throw .tooLarge(limit: limit) }
        data.append(contentsOf: chunk)
    }

    /// The body, which the sink gives up.
    mutating func finish() -> ResponseBody {
        defer { data = Data() }
        return .data(data)
    }
}
