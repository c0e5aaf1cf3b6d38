import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The string formats checked: date-time, date, time, uuid, email, uri, ipv4, ipv6 and byte. Other formats
/// (`password`, `binary`, vendor formats) are annotations and pass. One set of rules for every
/// validator: a declaration's schemas (CourierContract) and an OpenAPI document's (CourierOpenAPI).
package enum StringFormats {
    /// Whether `text` is a valid `format`; nil when the format is not checked.
    package static func check(_ format: String, _ text: String) -> Bool? {
        switch format {
        case "date-time": dateTime(text)
        case "date": date(text)
        case "time": time(text)
        case "uuid": uuid(text)
        case "email": email(text)
        case "uri": uri(text)
        case "uri-reference": !text.contains(" ")
        case "ipv4": ipv4(text)
        case "ipv6": ipv6(text)
        case "byte": byte(text)
        default: nil
        }
    }

    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(text)
    }

    /// RFC 3339 full-date: `2024-02-29`, with the month's real length.
    package static func date(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = digits(parts[0]), let month = digits(parts[1]), let day = digits(parts[2]),
            (1...12).contains(month), day >= 1
        else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    /// RFC 3339 full-time: `23:59:60.5Z`, `08:00:00+02:00`.
    package static func time(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 9, utf8[2] == UInt8(ascii: ":"), utf8[5] == UInt8(ascii: ":") else {
            return false
        }
        let scalars = String(decoding: utf8, as: UTF8.self)
        let hour = digits(Substring(scalars.prefix(2)))
        let minute = digits(scalars.dropFirst(3).prefix(2))
        let second = digits(scalars.dropFirst(6).prefix(2))
        guard let hour, let minute, let second, hour < 24, minute < 60, second <= 60 else { return false }
        var rest = scalars.dropFirst(8)
        if rest.hasPrefix(".") {
            rest = rest.dropFirst()
            let fraction = rest.prefix { $0.isASCII && $0.isNumber }
            guard !fraction.isEmpty else { return false }
            rest = rest.dropFirst(fraction.count)
        }
        if rest == "Z" || rest == "z" { return true }
        guard rest.count == 6, rest.first == "+" || rest.first == "-" else { return false }
        let offset = rest.dropFirst()
        guard offset.dropFirst(2).first == ":", let hours = digits(offset.prefix(2)),
            let minutes = digits(offset.suffix(2))
        else { return false }
        return hours < 24 && minutes < 60
    }

    /// RFC 3339 date-time: a full-date, `T`, a full-time.
    package static func dateTime(_ text: String) -> Bool {
        guard let separator = text.firstIndex(where: { $0 == "T" || $0 == "t" }) else { return false }
        return date(String(text[..<separator])) && time(String(text[text.index(after: separator)...]))
    }

    package static func uuid(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return false }
        for (index, byte) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if !isHex(byte) {
                return false
            }
        }
        return true
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    /// A pragmatic RFC 5321 mailbox: one `@`, a non-empty local part without spaces, a dotted domain.
    package static func email(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64, !text.contains(" ") else {
            return false
        }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2
            && labels.allSatisfy { label in
                !label.isEmpty && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.unicodeScalars.allSatisfy {
                        CharacterSet.alphanumerics.contains($0) || $0 == "-"
                    }
            }
    }

    /// An absolute URI: a scheme, `:`, and no spaces.
    package static func uri(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), !text.contains(" ") else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, CharacterSet.letters.contains(first) else {
            return false
        }
        return scheme.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || $0 == "+" || $0 == "-" || $0 == "."
        } && URLComponents(string: text) != nil
    }

    package static func ipv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                guard let value = digits(part), part.count <= 3, value <= 255 else { return false }
                return part.count == 1 || !part.hasPrefix("0")
            }
    }

    package static func ipv6(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }

    /// Base64 (RFC 4648) with padding.
    package static func byte(_ text: String) -> Bool {
        text.utf8.count % 4 == 0 && Data(base64Encoded: text) != nil
    }
}
