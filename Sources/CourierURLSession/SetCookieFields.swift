import Foundation

/// Separates the `Set-Cookie` fields that FoundationNetworking's `HTTPURLResponse` joins with
/// ", " into one value (it does so for every repeated field, and gives no other access to the
/// separate lines: `allHeaderFields` and `value(forHTTPHeaderField:)` read the same joined value).
package enum SetCookieFields {
    /// The `Set-Cookie` fields that FoundationNetworking joined with ", " into one value.
    ///
    /// Every ", " is taken for a join, except where it cannot be one: inside a value in double
    /// quotes, and after the weekday of an `Expires` date (`Expires=Wed, 21 Oct …`). A comma
    /// without its space is part of its field (`a=1,b=2` is one cookie, as over the wire).
    /// One field that itself holds ", " before something else (`a=1, b=2`) cannot be told
    /// from two fields, and is read as two. Empty fields are dropped.
    package static func split(_ value: String) -> [String] {
        let bytes = Array(value.utf8)
        var fields: [String] = []
        var start = 0
        var scanner = Scanner()
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ","), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: " "),
                scanner.mayJoinHere
            {
                fields.append(trimmed(bytes[start..<index]))
                start = index + 2
                index += 2
                scanner = Scanner()
                continue
            }
            scanner.take(byte, rest: bytes[(index + 1)...])
            index += 1
        }
        fields.append(trimmed(bytes[start...]))
        return fields.filter { !$0.isEmpty }
    }

    /// Where the scan is inside one field: in its name, its value (quoted or not) or an
    /// attribute; for `Expires`, whether a digit has come yet.
    private struct Scanner {
        enum Place { case name, valueStart, value, quoted, attributeName, attributeValue }
        var place = Place.name
        var attributeName: [UInt8] = []
        var attributeHasDigit = false

        /// Whether a ", " here can be where two fields were joined.
        var mayJoinHere: Bool {
            switch place {
            case .quoted: false
            case .attributeValue: !isExpires || attributeHasDigit
            default: true
            }
        }

        private var isExpires: Bool {
            String(decoding: attributeName, as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased()
                == "expires"
        }

        /// Whether the next quote in `rest` ends a quoted value (the field or the value ends
        /// there). The search stops at that quote, so the searches of all the fields together
        /// read the value about once.
        private static func closesQuote(_ rest: ArraySlice<UInt8>) -> Bool {
            guard let quote = rest.firstIndex(of: UInt8(ascii: "\"")) else { return false }
            let after = rest.index(after: quote)
            return after == rest.endIndex
                || [UInt8(ascii: ";"), UInt8(ascii: ","), 0x20, 0x09].contains(rest[after])
        }

        /// Takes `byte`; `rest` is what follows it in the joined value.
        mutating func take(_ byte: UInt8, rest: ArraySlice<UInt8>) {
            switch (place, byte) {
            case (.quoted, UInt8(ascii: "\"")): place = .value
            case (.quoted, _): break
            case (_, UInt8(ascii: ";")):
                place = .attributeName
                attributeName = []
                attributeHasDigit = false
            case (.name, UInt8(ascii: "=")): place = .valueStart
            case (.valueStart, UInt8(ascii: " ")), (.valueStart, UInt8(ascii: "\t")): break
            case (.valueStart, UInt8(ascii: "\"")):
                place = Self.closesQuote(rest) ? .quoted : .value
            case (.valueStart, _): place = .value
            case (.attributeName, UInt8(ascii: "=")): place = .attributeValue
            case (.attributeName, _): attributeName.append(byte)
            case (.attributeValue, _): if (0x30...0x39).contains(byte) { attributeHasDigit = true }
            default: break
            }
        }
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}
