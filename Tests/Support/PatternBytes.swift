import Foundation

/// Bytes that repeat `0, 1, …, period - 1`: byte `i` of the whole is `i % period`. Chunks are sliced
/// from one repeated buffer rather than built a byte at a time, which under a sanitizer took seconds
/// per MiB and pushed the download tests past their bounds.
public struct PatternBytes: Sendable {
    public let period: Int
    private let cycles: Data

    /// `period` must be in 1...256.
    public init(period: Int) {
        precondition((1...256).contains(period))
        self.period = period
        let cycle = Data((0..<period).map { UInt8($0) })
        var cycles = Data(capacity: period * 2 + Self.chunk)
        while cycles.count < period + Self.chunk { cycles.append(cycle) }
        self.cycles = cycles
    }

    private static let chunk = 64 << 10

    /// `count` bytes of the pattern from `offset` of the whole.
    public func bytes(offset: Int64, count: Int) -> Data {
        var result = Data(capacity: count)
        var position = offset
        var remaining = count
        while remaining > 0 {
            let start = Int(position % Int64(period))
            let take = min(remaining, Self.chunk)
            result.append(cycles[start..<(start + take)])
            position += Int64(take)
            remaining -= take
        }
        return result
    }

    /// The byte at `index` of the whole.
    public func byte(at index: Int) -> UInt8 { UInt8(index % period) }
}
