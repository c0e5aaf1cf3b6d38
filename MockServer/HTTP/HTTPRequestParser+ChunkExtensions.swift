extension HTTPRequestParser {
    /// Whether `bytes` (what follows the chunk size on its line) is a valid list of chunk extensions:
    /// `*( BWS ";" BWS name [ BWS "=" BWS ( token / quoted-string ) ] ) BWS` (RFC 9112 §7.1.1).
    /// A bare CR or LF, or any other control character, makes the line invalid, as in the head.
    static func isValidChunkExtensionList(_ bytes: ArraySlice<UInt8>) -> Bool {
        var cursor = bytes.startIndex
        let end = bytes.endIndex
        func skipWhitespace() {
            while cursor < end, bytes[cursor] == 32 || bytes[cursor] == 9 { cursor += 1 }
        }
        func token() -> Bool {
            let start = cursor
            while cursor < end, isTokenByte(bytes[cursor]) { cursor += 1 }
            return cursor > start
        }
        func quotedString() -> Bool {
            cursor += 1  // the opening quote
            while cursor < end {
                let byte = bytes[cursor]
                switch byte {
                case 34:
                    cursor += 1
                    return true
                case 92:
                    guard cursor + 1 < end, isQuotedText(bytes[cursor + 1]) || bytes[cursor + 1] == 34 else {
                        return false
                    }
                    cursor += 2
                default:
                    guard isQuotedText(byte) else { return false }
                    cursor += 1
                }
            }
            return false
        }
        skipWhitespace()
        while cursor < end {
            guard bytes[cursor] == 59 else { return false }
            cursor += 1
            skipWhitespace()
            guard token() else { return false }
            skipWhitespace()
            if cursor < end, bytes[cursor] == 61 {
                cursor += 1
                skipWhitespace()
                guard cursor < end else { return false }
                guard bytes[cursor] == 34 ? quotedString() : token() else { return false }
                skipWhitespace()
            }
        }
        return true
    }

    /// `qdtext` and the escapable bytes of a `quoted-pair` other than `"`: HTAB, SP, VCHAR except `"`,
    /// and obs-text.
    private static func isQuotedText(_ byte: UInt8) -> Bool {
        byte == 9 || (byte >= 32 && byte != 34 && byte != 127)
    }
}
