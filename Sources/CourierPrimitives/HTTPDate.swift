import Foundation

/// HTTP-dates (RFC 9110 §5.6.7), as `Date`, `Expires`, `Last-Modified` and `Retry-After` carry
/// them, read strictly: exactly one of the three forms (IMF-fixdate, the obsolete RFC 850 form and
/// asctime), with every digit, space and separator in place; anything else is no date at all.
///
/// Names (`Sun`, `Nov`, `GMT`) are compared without regard to case. A two-digit year of the
/// obsolete RFC 850 form that would be more than 50 years after `now` is read in the past
/// century.
package enum HTTPDate {
    /// `text` as a date, or nil when it is not an HTTP-date.
    package static func parse(_ text: String, now: Date = Date()) -> Date? {
        let bytes = Array(text.utf8)
        return imfFixdate(bytes) ?? rfc850(bytes, now: now) ?? asctime(bytes)
    }

    /// The value of a header field that must appear once, as a date: nil when absent,
    /// repeated, or not an HTTP-date.
    package static func field(_ name: String, in headers: [String], now: Date = Date()) -> Date? {
        guard headers.count == 1 else { return nil }
        return parse(headers[0], now: now)
    }

    /// `date` in the IMF-fixdate form.
    package static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    private static let days = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    private static let longDays = [
        "sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
    ]
    private static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    private static func imfFixdate(_ b: [UInt8]) -> Date? {
        guard b.count == 29, name(b[0..<3], in: days) != nil, b[3] == 0x2C, b[4] == 0x20,
            let day = number(b[5..<7]), b[7] == 0x20, let month = name(b[8..<11], in: months),
            b[11] == 0x20, let year = number(b[12..<16]), b[16] == 0x20, let time = time(b[17..<25]),
            b[25] == 0x20, name(b[26..<29], in: ["gmt"]) != nil
        else { return nil }
        return date(year: year, month: month + 1, day: day, time: time)
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`
    private static func rfc850(_ b: [UInt8], now: Date) -> Date? {
        guard let comma = b.firstIndex(of: 0x2C), name(b[0..<comma], in: longDays) != nil else { return nil }
        let rest = Array(b[(comma + 1)...])
        guard rest.count == 23, rest[0] == 0x20, let day = number(rest[1..<3]), rest[3] == 0x2D,
            let month = name(rest[4..<7], in: months), rest[7] == 0x2D, let shortYear = number(rest[8..<10]),
            rest[10] == 0x20, let time = time(rest[11..<19]), rest[19] == 0x20,
            name(rest[20..<23], in: ["gmt"]) != nil
        else { return nil }
        let currentYear = Calendar(identifier: .gregorian).dateComponents(in: gmt, from: now).year ?? 2000
        var year = currentYear - currentYear % 100 + shortYear
        if year > currentYear + 50 { year -= 100 }
        return date(year: year, month: month + 1, day: day, time: time)
    }

    /// `Sun Nov  6 08:49:37 1994`
    private static func asctime(_ b: [UInt8]) -> Date? {
        guard b.count == 24, name(b[0..<3], in: days) != nil, b[3] == 0x20,
            let month = name(b[4..<7], in: months), b[7] == 0x20,
            let day = b[8] == 0x20 ? number(b[9..<10]) : number(b[8..<10]), b[10] == 0x20,
            let time = time(b[11..<19]), b[19] == 0x20, let year = number(b[20..<24])
        else { return nil }
        return date(year: year, month: month + 1, day: day, time: time)
    }

    private static let gmt = TimeZone(identifier: "GMT")!

    /// `HH:MM:SS` as seconds into the day.
    private static func time(_ b: ArraySlice<UInt8>) -> Int? {
        let s = b.startIndex
        guard let hour = number(b[s..<s + 2]), b[s + 2] == 0x3A, let minute = number(b[s + 3..<s + 5]),
            b[s + 5] == 0x3A, let second = number(b[s + 6..<s + 8]), hour < 24, minute < 60, second <= 60
        else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    /// ASCII digits only, as a number.
    private static func number(_ b: ArraySlice<UInt8>) -> Int? {
        guard !b.isEmpty else { return nil }
        var value = 0
        for byte in b {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// The index of `b` in `names`, compared case-insensitively.
    private static func name(_ b: ArraySlice<UInt8>, in names: [String]) -> Int? {
        let lowered = String(decoding: b.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        return names.firstIndex(of: lowered)
    }

    /// A calendar date at `time` seconds into the day, GMT; nil when there is no such day.
    private static func date(year: Int, month: Int, day: Int, time: Int) -> Date? {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1, day <= lengths[month - 1] else { return nil }
        // Days from 1970-01-01 to the date, by the proleptic Gregorian calendar.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + time))
    }
}
