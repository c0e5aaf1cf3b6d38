import Courier
import CourierPrimitives
import Foundation

/// Parses the `Retry-After` header (RFC 9110 §10.2.3).
package enum RetryAfter {
    /// The seconds to wait: from a number of seconds (`120`) or an HTTP-date
    /// (`Wed, 21 Oct 2015 07:28:00 GMT`, also the obsolete RFC 850 and asctime forms).
    /// A date in the past gives 0. Returns `nil` for anything else.
    /// - Parameters:
    ///   - value: the header value.
    ///   - now: the current time.
    package static func seconds(from value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingWhitespace()
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return TimeInterval(text.prefix(9)) ?? nil
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
