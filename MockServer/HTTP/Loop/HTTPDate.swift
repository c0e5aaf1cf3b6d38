#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The IMF-fixdate for the `Date` header, recomputed at most once a second per loop (no formatter).
struct HTTPDateCache {
    private var second: Int = -1
    private var line: [UInt8] = []

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// The current date's header line, `Date: Sun, 06 Nov 1994 08:49:37 GMT` and CRLF.
    mutating func currentLine() -> [UInt8] {
        refresh()
        return line
    }

    private mutating func refresh() {
        let now = time(nil)
        if Int(now) != second {
            second = Int(now)
            line = Array("Date: \(Self.format(now))\r\n".utf8)
        }
    }

    static func format(_ seconds: time_t) -> String {
        var value = seconds
        var parts = tm()
        gmtime_r(&value, &parts)
        func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
