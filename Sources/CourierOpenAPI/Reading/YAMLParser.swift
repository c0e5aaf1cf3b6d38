import Foundation

/// A YAML 1.2 parser in Swift: the text's characters read by recursive descent into `YAMLNode`s, one per
/// document, with the block structure taken from indentation.
///
/// It covers what configuration and API documents use: block and flow collections, plain, quoted,
/// literal and folded scalars, explicit keys, anchors and aliases, tags with `%TAG` handles, comments and
/// document markers. Every loop consumes a character or ends, and nesting is bounded, so no input hangs
/// it or exhausts the stack; malformed text is a `YAMLError` with the line and column where it went wrong.
struct YAMLParser {
    /// The deepest nesting of collections read; deeper text is refused rather than risking the stack.
    static let maxDepth = 100

    let text: [Unicode.Scalar]
    var pos = 0
    /// The 1-based line of `pos`.
    var line = 1
    /// Where the line holding `pos` starts.
    var lineStart = 0
    /// The line of the last character of the last token read; a token on a later line starts a new line.
    var lastTokenLine = 0
    var depth = 0
    /// `%TAG` handles of the current document.
    var handles: [String: String] = [:]
    /// Whether the current document's directives held `%YAML`.
    var sawYAMLDirective = false

    /// Decodes the text (UTF-8, or UTF-16 with a byte-order mark) and normalises its line breaks.
    init(_ data: Data) throws(YAMLError) {
        let decoded: String?
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) {
            decoded = String(data: data, encoding: .utf16)
        } else {
            decoded = String(data: data, encoding: .utf8)
        }
        guard let decoded else {
            throw YAMLError(line: 1, column: 1, reason: "malformed YAML: the text is not UTF-8 or UTF-16")
        }
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(data.count)
        var previousWasCR = false
        var line = 1
        var column = 1
        for scalar in decoded.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            if scalar == "\n" && previousWasCR { continue }
            if scalar == "\u{FEFF}" && scalars.isEmpty { continue }
            if scalar == "\r" || scalar == "\n" {
                scalars.append("\n")
                line += 1
                column = 1
                continue
            }
            guard Self.isPrintable(scalar) else {
                throw YAMLError(
                    line: line, column: column,
                    reason:
                        "malformed YAML: control character U+\(String(scalar.value, radix: 16, uppercase: true))"
                )
            }
            scalars.append(scalar)
            column += 1
        }
        text = scalars
    }

    /// The characters YAML allows in a stream (c-printable), line breaks aside.
    static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Reads every document of the stream.
    mutating func documents() throws(YAMLError) -> [YAMLNode] {
        var documents: [YAMLNode] = []
        while true {
            skipSeparation()
            if atEnd { return documents }
            handles = [:]
            sawYAMLDirective = false
            var sawDirective = false
            while char() == "%" && column == 0 {
                try readDirective()
                sawDirective = true
                skipSeparation()
            }
            if atMarker("---") {
                advance(3)
                lastTokenLine = line
                documents.append(try blockNode(parent: -1, compact: false, sequenceAtParent: false))
            } else if atMarker("...") {
                if sawDirective { throw error("directives must be followed by '---'") }
                advance(3)
                continue
            } else {
                if sawDirective || atEnd { throw error("directives must be followed by '---'") }
                documents.append(try blockNode(parent: -1, compact: false, sequenceAtParent: false))
            }
            skipSeparation()
            if atEnd { return documents }
            if atMarker("...") {
                advance(3)
                lastTokenLine = line
                skipSeparation()
                if !atEnd && line == lastTokenLine { throw error("unexpected text after '...'") }
            } else if !atMarker("---") {
                throw error("expected the end of the document, found \(describe(char()))")
            }
        }
    }

    // MARK: The cursor

    var atEnd: Bool { pos >= text.count }
    /// The 0-based column of `pos`.
    var column: Int { pos - lineStart }

    func char(_ offset: Int = 0) -> Unicode.Scalar? {
        let index = pos + offset
        return index < text.count ? text[index] : nil
    }

    mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where pos < text.count {
            if text[pos] == "\n" {
                line += 1
                lineStart = pos + 1
            }
            pos += 1
        }
    }

    static func isBlank(_ scalar: Unicode.Scalar?) -> Bool { scalar == " " || scalar == "\t" }
    static func isWhiteOrEnd(_ scalar: Unicode.Scalar?) -> Bool {
        scalar == nil || scalar == "\n" || isBlank(scalar)
    }
    static func isFlowIndicator(_ scalar: Unicode.Scalar?) -> Bool {
        scalar == "," || scalar == "[" || scalar == "]" || scalar == "{" || scalar == "}"
    }

    /// `---` or `...` at the start of a line, followed by a space, a break or the end.
    func atMarker(_ marker: String) -> Bool {
        guard column == 0 else { return false }
        for (offset, scalar) in marker.unicodeScalars.enumerated() where char(offset) != scalar {
            return false
        }
        return Self.isWhiteOrEnd(char(3))
    }

    /// Skips spaces, tabs, comments and line breaks.
    mutating func skipSeparation() {
        while let scalar = char() {
            if Self.isBlank(scalar) || scalar == "\n" {
                advance()
            } else if scalar == "#" && (pos == lineStart || Self.isWhiteOrEnd(text[pos - 1])) {
                while let next = char(), next != "\n" { advance() }
            } else {
                return
            }
        }
    }

    /// Skips spaces and tabs on the current line.
    mutating func skipBlanks() {
        while Self.isBlank(char()) { advance() }
    }

    func error(_ reason: String) -> YAMLError {
        YAMLError(line: line, column: column + 1, reason: "malformed YAML: " + reason)
    }

    func error(_ reason: String, line: Int, column: Int) -> YAMLError {
        YAMLError(line: line, column: column, reason: "malformed YAML: " + reason)
    }

    func describe(_ scalar: Unicode.Scalar?) -> String {
        guard let scalar else { return "the end of the text" }
        return scalar == "\n" ? "a line break" : "'\(Character(scalar))'"
    }

    /// Enters one level of nesting, refusing past the bound.
    mutating func enter() throws(YAMLError) {
        depth += 1
        if depth > Self.maxDepth { throw error("collections nested more than \(Self.maxDepth) deep") }
    }

    // MARK: Directives and properties

    /// `%YAML 1.2` (any 1.x is read as 1.2) or `%TAG !handle! prefix`; other directives are ignored.
    mutating func readDirective() throws(YAMLError) {
        advance()
        let name = word()
        skipBlanks()
        switch name {
        case "YAML":
            guard !sawYAMLDirective else { throw error("a second %YAML directive") }
            sawYAMLDirective = true
            let version = word()
            guard version.hasPrefix("1.") else { throw error("unsupported YAML version \(version)") }
            skipBlanks()
            guard char() == nil || char() == "\n" || char() == "#" else {
                throw error("unexpected text after %YAML \(version)")
            }
        case "TAG":
            let handle = word()
            skipBlanks()
            let prefix = word()
            guard handle.hasPrefix("!"), handle.hasSuffix("!"), !prefix.isEmpty else {
                throw error("a %TAG directive needs a handle and a prefix")
            }
            handles[handle] = prefix
        default:
            break
        }
        while let next = char(), next != "\n" { advance() }
    }

    /// Characters up to the next space, break or end.
    mutating func word(stoppingAtFlowIndicators: Bool = false) -> String {
        var result = ""
        while let scalar = char(), !Self.isWhiteOrEnd(scalar) {
            if stoppingAtFlowIndicators && Self.isFlowIndicator(scalar) { break }
            result.unicodeScalars.append(scalar)
            advance()
        }
        return result
    }

    /// Node properties: an anchor `&name` and a tag, in either order. `line` is where they were written.
    struct Properties {
        var tag: String?
        var anchor: String?
        var line = 0
        var column = 0
        var isEmpty: Bool { tag == nil && anchor == nil }
    }

    /// Reads the properties written on the cursor's line, skipping separation after each.
    mutating func properties() throws(YAMLError) -> Properties {
        var found = Properties(line: line, column: column + 1)
        while (char() == "&" || char() == "!") && line == found.line {
            if char() == "&" {
                guard found.anchor == nil else { throw error("a node has two anchors") }
                advance()
                found.anchor = try anchorName()
            } else {
                guard found.tag == nil else { throw error("a node has two tags") }
                found.tag = try tag()
            }
            lastTokenLine = line
            skipSeparation()
        }
        return found
    }

    /// An anchor's or an alias's name: letters, digits, `-` and `_`, as libyaml reads them.
    mutating func anchorName() throws(YAMLError) -> String {
        var name = ""
        while let scalar = char(), scalar.isASCII,
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
        {
            name.unicodeScalars.append(scalar)
            advance()
        }
        guard !name.isEmpty else {
            throw error("an anchor or alias needs a name of letters, digits, '-' or '_'")
        }
        let next = char()
        guard
            Self.isWhiteOrEnd(next) || next == "?" || next == ":" || next == "," || next == "]" || next == "}"
        else {
            throw error("an anchor or alias name cannot hold \(describe(next))")
        }
        return name
    }

    /// Both groups of properties on one node; a node has at most one anchor and one tag.
    func merged(_ outer: Properties, _ inner: Properties) throws(YAMLError) -> Properties {
        if outer.isEmpty { return inner }
        if inner.isEmpty { return outer }
        guard outer.anchor == nil || inner.anchor == nil else {
            throw error("a node has two anchors", line: inner.line, column: inner.column)
        }
        guard outer.tag == nil || inner.tag == nil else {
            throw error("a node has two tags", line: inner.line, column: inner.column)
        }
        var both = outer
        both.anchor = outer.anchor ?? inner.anchor
        both.tag = outer.tag ?? inner.tag
        return both
    }

    /// `!<verbatim>`, `!!suffix`, `!handle!suffix`, `!suffix` or `!` alone, resolved by the handles.
    mutating func tag() throws(YAMLError) -> String {
        let startLine = line
        let startColumn = column + 1
        advance()
        if char() == "<" {
            advance()
            var verbatim = ""
            while let scalar = char(), scalar != ">" {
                guard !Self.isWhiteOrEnd(scalar) else { throw error("a verbatim tag needs its '>'") }
                verbatim.unicodeScalars.append(scalar)
                advance()
            }
            guard char() == ">", !verbatim.isEmpty else { throw error("a verbatim tag needs its '>'") }
            advance()
            return try Self.percentDecoded(verbatim, line: startLine, column: startColumn)
        }
        let written = word(stoppingAtFlowIndicators: true)
        if written.isEmpty { return "!" }
        let handle: String
        let suffix: Substring
        if let bang = written.firstIndex(of: "!") {
            handle = "!" + written[...bang]
            suffix = written[written.index(after: bang)...]
        } else {
            handle = "!"
            suffix = Substring(written)
        }
        let prefix: String
        if let declared = handles[handle] {
            prefix = declared
        } else if handle == "!!" {
            prefix = "tag:yaml.org,2002:"
        } else if handle == "!" {
            prefix = "!"
        } else {
            throw error("undefined tag handle \(handle)", line: startLine, column: startColumn)
        }
        return prefix + (try Self.percentDecoded(String(suffix), line: startLine, column: startColumn))
    }

    /// A tag's `%XX` escapes decoded.
    static func percentDecoded(_ text: String, line: Int, column: Int) throws(YAMLError) -> String {
        guard text.contains("%") else { return text }
        guard let decoded = text.removingPercentEncoding else {
            throw YAMLError(line: line, column: column, reason: "malformed YAML: a bad %-escape in a tag")
        }
        return decoded
    }
}
