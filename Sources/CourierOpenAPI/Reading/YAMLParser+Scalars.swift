/// Scalars: plain, single- and double-quoted, literal (`|`) and folded (`>`), with YAML's line folding.
extension YAMLParser {
    /// A plain scalar, over several lines when they are indented more than `parent` (in flow, any line).
    mutating func plainScalar(parent: Int, inFlow: Bool) throws(YAMLError) -> YAMLNode {
        let startLine = line
        let startColumn = column + 1
        guard let first = char() else { throw error("expected a value, found the end of the text") }
        if first == "-" || first == "?" || first == ":" {
            if Self.isWhiteOrEnd(char(1)) || (inFlow && Self.isFlowIndicator(char(1))) {
                throw error("expected a value, found \(describe(first))")
            }
        } else if "[]{},#&*!|>'\"%@`".unicodeScalars.contains(first) {
            throw error("a plain value cannot start with \(describe(first))")
        }
        var result = ""
        var fold = ""
        while true {
            var lineText = ""
            while let scalar = char(), scalar != "\n" {
                if isValueIndicator(afterJSONLike: false, inFlow: inFlow) { break }
                if inFlow && Self.isFlowIndicator(scalar) { break }
                if Self.isBlank(scalar) && char(1) == "#" { break }
                lineText.unicodeScalars.append(scalar)
                advance()
            }
            while let last = lineText.unicodeScalars.last, Self.isBlank(last) {
                lineText.unicodeScalars.removeLast()
            }
            result += fold + lineText
            lastTokenLine = line
            guard char() == "\n", let breaks = continuation(parent: parent, inFlow: inFlow) else { break }
            fold = breaks == 0 ? " " : String(repeating: "\n", count: breaks)
        }
        return YAMLNode(kind: .scalar(result, plain: true), line: startLine, column: startColumn)
    }

    /// At a plain scalar's line break: moves to the next line's text and returns the number of empty lines
    /// between, or stays put and returns nil when the scalar ends there.
    private mutating func continuation(parent: Int, inFlow: Bool) -> Int? {
        let saved = (pos, line, lineStart)
        var breaks = -1
        while char() == "\n" {
            advance()
            breaks += 1
            skipBlanks()
        }
        let ends =
            atEnd || char() == "#" || atMarker("---") || atMarker("...")
            || (!inFlow && column <= parent)
            || isValueIndicator(afterJSONLike: false, inFlow: inFlow)
            || (inFlow && Self.isFlowIndicator(char()))
        if ends {
            (pos, line, lineStart) = saved
            return nil
        }
        return breaks
    }

    /// A `'single'` or `"double"` quoted scalar, with escapes in the double-quoted kind.
    mutating func quotedScalar() throws(YAMLError) -> YAMLNode {
        let startLine = line
        let startColumn = column + 1
        let single = char() == "'"
        advance()
        var result = ""
        while true {
            guard let scalar = char() else {
                throw error("a quoted value is not closed", line: startLine, column: startColumn)
            }
            if atMarker("---") || atMarker("...") {
                throw error("a document marker inside a quoted value")
            }
            if single && scalar == "'" {
                advance()
                guard char() == "'" else { break }
                result += "'"
                advance()
            } else if !single && scalar == "\"" {
                advance()
                break
            } else if !single && scalar == "\\" && char(1) == "\n" {
                advance(2)
                result += foldedBreaks(escaped: true)
            } else if !single && scalar == "\\" {
                result.unicodeScalars.append(try escape())
            } else if Self.isBlank(scalar) || scalar == "\n" {
                var blanks = ""
                while let next = char(), Self.isBlank(next) {
                    blanks.unicodeScalars.append(next)
                    advance()
                }
                if char() == "\n" {
                    advance()
                    result += foldedBreaks(escaped: false)
                } else {
                    result += blanks
                }
            } else {
                result.unicodeScalars.append(scalar)
                advance()
            }
        }
        lastTokenLine = line
        return YAMLNode(kind: .scalar(result, plain: false), line: startLine, column: startColumn)
    }

    /// After a line break inside quotes: skips the next lines' leading blanks and returns what the breaks
    /// fold to (a space for one break, a line feed for each empty line; an escaped break adds nothing).
    private mutating func foldedBreaks(escaped: Bool) -> String {
        skipBlanks()
        var empty = 0
        while char() == "\n" {
            advance()
            empty += 1
            skipBlanks()
        }
        if empty == 0 { return escaped ? "" : " " }
        return String(repeating: "\n", count: empty)
    }

    /// One escape of a double-quoted scalar, the cursor on its `\`.
    private mutating func escape() throws(YAMLError) -> Unicode.Scalar {
        let escapeLine = line
        let escapeColumn = column + 1
        advance()
        guard let code = char() else { throw error("a quoted value is not closed") }
        advance()
        let simple: [Unicode.Scalar: Unicode.Scalar] = [
            "0": "\0", "a": "\u{07}", "b": "\u{08}", "t": "\t", "\t": "\t", "n": "\n", "v": "\u{0B}",
            "f": "\u{0C}", "r": "\r", "e": "\u{1B}", " ": " ", "\"": "\"", "/": "/", "\\": "\\",
            "N": "\u{85}", "_": "\u{A0}", "L": "\u{2028}", "P": "\u{2029}",
        ]
        if let scalar = simple[code] { return scalar }
        let digits: Int
        switch code {
        case "x": digits = 2
        case "u": digits = 4
        case "U": digits = 8
        default: throw error("unknown escape \\\(Character(code))", line: escapeLine, column: escapeColumn)
        }
        var hex = ""
        for _ in 0..<digits {
            guard let digit = char(), digit.properties.isASCIIHexDigit else {
                throw error(
                    "\\\(Character(code)) needs \(digits) hex digits", line: escapeLine, column: escapeColumn)
            }
            hex.unicodeScalars.append(digit)
            advance()
        }
        guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
            throw error(
                "\\\(Character(code))\(hex) is not a character", line: escapeLine, column: escapeColumn)
        }
        return scalar
    }

    /// A literal (`|`) or folded (`>`) block scalar, with its chomping (`-`, `+`) and indentation digit.
    mutating func blockScalar(parent: Int) throws(YAMLError) -> YAMLNode {
        let startLine = line
        let startColumn = column + 1
        let folded = char() == ">"
        advance()
        var chomping: Unicode.Scalar?
        var increment = 0
        for _ in 0..<2 {
            if let scalar = char(), chomping == nil, scalar == "-" || scalar == "+" {
                chomping = scalar
                advance()
            } else if let scalar = char(), increment == 0, ("1"..."9").contains(scalar) {
                increment = Int(scalar.value - 0x30)
                advance()
            }
        }
        skipBlanks()
        if char() == "#" && Self.isBlank(text[pos - 1]) {
            while let next = char(), next != "\n" { advance() }
        }
        guard char() == nil || char() == "\n" else {
            throw error("expected a line break after a block scalar's header, found \(describe(char()))")
        }
        advance()
        var indent = increment > 0 ? (parent >= 0 ? parent + increment : increment) : 0
        var result = ""
        var leadingBreak = ""
        var trailingBreaks = ""
        var leadingBlank = false
        try blockBreaks(indent: &indent, parent: parent, breaks: &trailingBreaks)
        while column == indent && !atEnd && !atMarker("---") && !atMarker("...") {
            let trailingBlank = Self.isBlank(char())
            if folded && leadingBreak == "\n" && !leadingBlank && !trailingBlank {
                if trailingBreaks.isEmpty { result += " " }
            } else {
                result += leadingBreak
            }
            leadingBreak = ""
            result += trailingBreaks
            trailingBreaks = ""
            leadingBlank = trailingBlank
            while let scalar = char(), scalar != "\n" {
                result.unicodeScalars.append(scalar)
                advance()
            }
            if atEnd { break }
            advance()
            leadingBreak = "\n"
            try blockBreaks(indent: &indent, parent: parent, breaks: &trailingBreaks)
        }
        if chomping != "-" { result += leadingBreak }
        if chomping == "+" { result += trailingBreaks }
        lastTokenLine = atEnd ? line : line - 1
        return YAMLNode(
            kind: .scalar(result, plain: false), line: startLine, column: startColumn)
    }

    /// Skips a block scalar's empty lines (one `\n` each into `breaks`) and the next line's indentation;
    /// finds the indentation from the first line with text when none was given.
    private mutating func blockBreaks(indent: inout Int, parent: Int, breaks: inout String) throws(YAMLError)
    {
        var widest = 0
        while true {
            while (indent == 0 || column < indent) && char() == " " { advance() }
            widest = max(widest, column)
            if (indent == 0 || column < indent) && char() == "\t" {
                throw error("a tab where indentation was expected")
            }
            guard char() == "\n" else { break }
            advance()
            breaks += "\n"
        }
        if indent == 0 {
            indent = max(widest, parent + 1, 1)
        }
    }
}
