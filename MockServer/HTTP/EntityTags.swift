/// The entity tags of an `If-Match` or `If-None-Match` field, and the two comparisons of
/// RFC 9110 §8.8.3.2: `If-Match` compares strongly (a weak tag never matches), `If-None-Match`
/// weakly (`W/"x"` matches `"x"`).
package struct EntityTags: Equatable {
    /// One tag: its opaque part with the quotes, and whether it was marked weak.
    package struct Tag: Equatable {
        var isWeak: Bool
        var opaque: Substring
    }

    /// `*`: any current representation.
    package var isWildcard = false
    package var tags: [Tag] = []

    /// Reads a field value: `*`, or a comma-separated list of `"x"` and `W/"x"`.
    /// - Returns: nil when the value is neither, which a server ignores as it would an absent field.
    package init?(field: String) {
        let value = field.trimmed(of: " \t")
        if value == "*" {
            isWildcard = true
            return
        }
        var rest = Substring(value)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            guard !rest.isEmpty else { break }
            let isWeak = rest.hasPrefix("W/")
            if isWeak { rest = rest.dropFirst(2) }
            // etagc is any visible character but `"` (commas included), so a tag ends at its closing quote.
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { return nil }
            let opaque = rest[...close]
            guard opaque.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value != 0x7F }) else {
                return nil
            }
            tags.append(Tag(isWeak: isWeak, opaque: opaque))
            rest = rest[rest.index(after: close)...]
            let separator = rest.prefix { $0 == " " || $0 == "\t" }
            rest = rest.dropFirst(separator.count)
            guard rest.isEmpty || rest.first == "," else { return nil }
        }
        if tags.isEmpty { return nil }
    }

    /// Whether the field names `etag` by the strong comparison: neither is weak, and they are the same.
    package func matchesStrongly(_ etag: String) -> Bool {
        guard !isWildcard else { return true }
        guard let current = EntityTags(field: etag)?.tags.first, !current.isWeak else { return false }
        return tags.contains { !$0.isWeak && $0.opaque == current.opaque }
    }

    /// Whether the field names `etag` by the weak comparison: the same once `W/` is set aside.
    package func matchesWeakly(_ etag: String) -> Bool {
        guard !isWildcard else { return true }
        guard let current = EntityTags(field: etag)?.tags.first else { return false }
        return tags.contains { $0.opaque == current.opaque }
    }
}
