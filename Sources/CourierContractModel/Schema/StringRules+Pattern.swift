extension Schema.StringRules {
    /// The pattern a document carries for these rules: the written `pattern`, else `prefix`,
    /// `allowed` and `noLeadingDot` said as one anchored ECMA-262 expression, so that a document's
    /// validator enforces what the declaration does; nil when no rule needs one.
    package var documentPattern: String? {
        if let pattern { return pattern }
        guard prefix != nil || allowed != nil || noLeadingDot else { return nil }
        let start = "^" + Self.escaped(prefix ?? "")
        guard let allowed else { return start + (noLeadingDot ? "(?:[^.][\\s\\S]*)?$" : "[\\s\\S]*$") }
        guard !allowed.isEmpty else { return start + "$" }
        let rest = "[" + Self.characterClass(allowed) + "]"
        guard noLeadingDot else { return start + rest + "*$" }
        let first = allowed.subtracting(["."])
        guard !first.isEmpty else { return start + "$" }
        return start + "(?:[" + Self.characterClass(first) + "]" + rest + "*)?$"
    }

    /// `text` with every character that means something in an expression escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\^$.|?*+()[]{}/".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// The inside of a character class holding exactly `characters`, runs of three or more
    /// consecutive scalars written as ranges (`a-z`).
    static func characterClass(_ characters: Set<Character>) -> String {
        let scalars = characters.flatMap(\.unicodeScalars).map(\.value).sorted()
        var out = ""
        var index = 0
        while index < scalars.count {
            var end = index
            while end + 1 < scalars.count, scalars[end + 1] == scalars[end] + 1 { end += 1 }
            if end - index >= 2 {
                out += member(scalars[index]) + "-" + member(scalars[end])
            } else {
                for value in scalars[index...end] { out += member(value) }
            }
            index = end + 1
        }
        return out
    }

    private static func member(_ value: UInt32) -> String {
        guard let scalar = Unicode.Scalar(value) else { return "" }
        let text = String(Character(scalar))
        return "\\]^-[".contains(text) ? "\\" + text : text
    }
}
