import Courier

/// Percent-encoding rules for URLs and forms.
package enum PercentEncoding {
    /// RFC 3986 §2.3 unreserved characters: `ALPHA / DIGIT / "-" / "." / "_" / "~"`.
    /// Everything else, including `[`, `]`, `&`, `=`, `+` and `/`, is percent-encoded.
    package static func rfc3986(_ text: String) -> String {
        encode(text, keeping: isUnreserved, spaceAsPlus: false)
    }

    /// The WHATWG URL standard's `application/x-www-form-urlencoded` serializer
    /// (https://url.spec.whatwg.org/#urlencoded-serializing): keeps `ALPHA / DIGIT / "*" /
    /// "-" / "." / "_"`, writes a space as `+`, and percent-encodes every other byte of
    /// the UTF-8 text (so `~` becomes `%7E` and `+` becomes `%2B`).
    package static func form(_ text: String) -> String {
        encode(text, keeping: isFormSafe, spaceAsPlus: true)
    }

    /// A path segment: unreserved characters plus RFC 3986 sub-delims, `:` and `@`
    /// (`pchar`) are kept; `/`, `?`, `#`, `%` and the rest are percent-encoded.
    package static func pathSegment(_ text: String) -> String {
        encode(text, keeping: isPathCharacter, spaceAsPlus: false)
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    static func isFormSafe(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }

    static func isPathCharacter(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || "!$&'()*+,;=:@".utf8.contains(byte)
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static let hex = Array("0123456789ABCDEF".utf8)

    private static func encode(_ text: String, keeping keep: (UInt8) -> Bool, spaceAsPlus: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keep(byte) {
                bytes.append(byte)
            } else if spaceAsPlus && byte == UInt8(ascii: " ") {
                bytes.append(UInt8(ascii: "+"))
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
