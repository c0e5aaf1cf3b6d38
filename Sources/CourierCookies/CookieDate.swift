import Foundation

/// RFC 6265's cookie-date algorithm (§5.1.1), which reads an `Expires` attribute in the forms
/// servers send: a time, a day of the month, a month and a year, as tokens in any order between
/// any delimiters, with two-digit years; whatever else the text holds is ignored.
package enum CookieDate {
    /// The date `text` names, or `nil` when it lacks a part or a part is out of range.
    package static func parse(_ text: String) -> Date? {
        var time: (hour: Int, minute: Int, second: Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in text.utf8.split(whereSeparator: isDelimiter) {
            if time == nil, let found = self.time(token) {
                time = found
            } else if day == nil, let found = number(token, digits: 1...2) {
                day = found
            } else if month == nil, let found = self.month(token) {
                month = found
            } else if year == nil, let found = number(token, digits: 2...4) {
                year = found
            }
        }
        guard let time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, time.hour <= 23, time.minute <= 59, time.second <= 59,
            day <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `%x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x20...0x2F, 0x3B...0x40, 0x5B...0x60, 0x7B...0x7E: true
        default: false
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// Leading digits of `token`, as many as `digits` allows and then a non-digit or the end
    /// (`day-of-month` and `year`).
    private static func number(_ token: Substring.UTF8View.SubSequence, digits: ClosedRange<Int>) -> Int? {
        let count = token.prefix { isDigit($0) }.count
        guard digits.contains(count) else { return nil }
        return token.prefix(count).reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `hms-time`: three fields of one or two digits between colons, then a non-digit or the end.
    private static func time(_ token: Substring.UTF8View.SubSequence) -> (
        hour: Int, minute: Int, second: Int
    )? {
        var fields: [Int] = []
        var rest = token[...]
        for index in 0..<3 {
            guard let field = number(rest, digits: 1...2) else { return nil }
            fields.append(field)
            rest = rest.drop { isDigit($0) }
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        return (fields[0], fields[1], fields[2])
    }

    private static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]

    /// A token whose first three letters name a month, case-insensitively.
    private static func month(_ token: Substring.UTF8View.SubSequence) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
