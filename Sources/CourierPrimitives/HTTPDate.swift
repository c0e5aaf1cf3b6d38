import Foundation

/// HTTP-dates (RFC 9110 §5.6.7), as `Date`, `Expires`, `Last-Modified`, `Retry-After` and
/// cookies' `Expires` carry them.
package enum HTTPDate {
    /// Parses an HTTP-date in any of the three forms RFC 9110 allows: IMF-fixdate
    /// (`Wed, 21 Oct 2015 07:28:00 GMT`), the obsolete RFC 850 form and asctime.
    package static func parse(_ text: String) -> Date? {
        for format in [
            "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
        ] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
