import Foundation

extension Duration {
    /// The duration in seconds, as Foundation's timers and libcurl's millisecond options take it.
    package var timeInterval: TimeInterval {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// `seconds` as a duration; nil for a value that is not finite or too large to be one
    /// (from 10^15 s on; `.seconds(_:)` traps on a value beyond its range).
    package static func seconds(exactly seconds: TimeInterval) -> Duration? {
        seconds.isFinite && abs(seconds) < 1e15 ? .seconds(seconds) : nil
    }
}
