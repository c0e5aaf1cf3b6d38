import Foundation

extension Duration {
    /// The duration in seconds, as Foundation's timers and libcurl's millisecond options take it.
    package var timeInterval: TimeInterval {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// `seconds` as a duration; nil for a value that is not finite.
    package static func seconds(exactly seconds: TimeInterval) -> Duration? {
        seconds.isFinite ? .seconds(seconds) : nil
    }
}
