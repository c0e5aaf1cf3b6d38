import Foundation

/// Separates the `Set-Cookie` fields that FoundationNetworking's `HTTPURLResponse` joins with
/// ", " into one value (it does so for every repeated field; only `Set-Cookie` cannot be read
/// back as a list).
package enum SetCookieFields {
    /// The `Set-Cookie` fields that FoundationNetworking joined with ", " into one value.
    ///
    /// A comma starts a new cookie only where the text after it reads `name=` (a token, then
    /// `=`) before any `;` or `,`: the comma inside an `Expires` date (`Wed, 21 Oct …`) is
    /// followed by a day of the month and stays where it is.
    package static func split(_ value: String) -> [String] {
        let bytes = Array(value.utf8)
        var cookies: [String] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: ",") {
            guard startsCookie(bytes[(index + 1)...]) else { continue }
            cookies.append(trimmed(bytes[start..<index]))
            start = index + 1
        }
        cookies.append(trimmed(bytes[start...]))
        return cookies.filter { !$0.isEmpty }
    }

    /// Whether `rest` begins (after spaces) with a cookie name and `=`.
    private static func startsCookie(_ rest: ArraySlice<UInt8>) -> Bool {
        let text = rest.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        // Only the name is read: the scan ends at the first byte a name cannot hold, so a value with
        // many commas and no `=` is not scanned again from every comma.
        guard let end = text.firstIndex(where: { $0 <= 0x20 || $0 >= 0x7F || separators.contains($0) }),
            end > text.startIndex
        else { return false }
        return text[end] == UInt8(ascii: "=")
    }

    /// The field without surrounding spaces, or the commas of an empty field next to it (a
    /// cookie-value has no commas).
    /// RFC 6265 cookie-name is an RFC 7230 token: no separators, spaces or controls.
    private static let separators = Set("()<>@,;:\\\"/[]?={} \t".utf8)

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: trim)
    }

    private static let trim = CharacterSet.whitespaces.union(CharacterSet(charactersIn: ","))
}
