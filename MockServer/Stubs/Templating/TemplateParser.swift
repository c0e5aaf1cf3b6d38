import Foundation

/// Turns template text into ``Template/Node``s: a scanner for tags, then a recursive-descent parser of the
/// expressions inside them. Every loop consumes input, so any input ends in a result or a ``Template/Failure``.
struct TemplateParser {
    private typealias Failure = Template.Failure

    /// One `{{…}}` tag, classified.
    private enum Tag {
        case output(escaped: Bool, body: [Unicode.Scalar], offset: Int)
        case open(body: [Unicode.Scalar], offset: Int)
        case close(name: String, offset: Int)
        case elseTag(body: [Unicode.Scalar], offset: Int)
        case comment
    }

    private enum Piece {
        case text(String)
        case tag(Tag, stripBefore: Bool, stripAfter: Bool)
    }

    private let scalars: [Unicode.Scalar]
    private var pieces: [Piece] = []
    private var cursor = 0
    /// Nesting limit, so a hostile template cannot exhaust the stack.
    static let maxDepth = 64

    init(_ source: String) {
        scalars = Array(source.unicodeScalars)
    }

    mutating func parseDocument() throws(Template.Failure) -> [Template.Node] {
        try scan()
        applyWhitespaceControl()
        cursor = 0
        let (nodes, end) = try parseNodes(depth: 0)
        switch end {
        case nil: return nodes
        case .close(let name, let offset)?:
            throw Failure(message: "{{/\(name)}} closes no open block", position: offset)
        case .elseTag(_, let offset)?:
            throw Failure(message: "{{else}} outside a block", position: offset)
        default:
            throw Failure(message: "unexpected tag", position: nil)
        }
    }

    // MARK: - Scanning

    private mutating func scan() throws(Failure) {
        var text: [Unicode.Scalar] = []
        var index = 0
        func flush(_ pieces: inout [Piece]) {
            if !text.isEmpty {
                var string = ""
                string.unicodeScalars.append(contentsOf: text)
                pieces.append(.text(string))
                text.removeAll()
            }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\", index + 2 < scalars.count, scalars[index + 1] == "{", scalars[index + 2] == "{"
            {
                // `\{{` is a literal `{{`: copy up to the closing braces as text.
                index += 1
                let start = index
                while index < scalars.count {
                    if scalars[index] == "}", index + 1 < scalars.count, scalars[index + 1] == "}" {
                        index += 2
                        break
                    }
                    index += 1
                }
                text.append(contentsOf: scalars[start..<index])
                continue
            }
            guard scalar == "{", index + 1 < scalars.count, scalars[index + 1] == "{" else {
                text.append(scalar)
                index += 1
                continue
            }
            flush(&pieces)
            let tagStart = index
            index += 2
            var triple = false
            if index < scalars.count, scalars[index] == "{" {
                triple = true
                index += 1
            }
            var stripBefore = false
            if index < scalars.count, scalars[index] == "~" {
                stripBefore = true
                index += 1
            }
            // A long comment ends only at `--}}`.
            if !triple, index + 2 < scalars.count, scalars[index] == "!", scalars[index + 1] == "-",
                scalars[index + 2] == "-"
            {
                guard let end = find(["-", "-", "}", "}"], from: index + 3) else {
                    throw Failure(message: "unclosed comment", position: tagStart)
                }
                let stripAfter = end > 0 && scalars[end - 1] == "~"
                pieces.append(.tag(.comment, stripBefore: stripBefore, stripAfter: stripAfter))
                index = end + 4
                continue
            }
            let bodyStart = index
            guard let closeAt = findTagEnd(from: index, triple: triple) else {
                throw Failure(message: "unclosed tag {{", position: tagStart)
            }
            var bodyEnd = closeAt
            var stripAfter = false
            if bodyEnd > bodyStart, scalars[bodyEnd - 1] == "~" {
                stripAfter = true
                bodyEnd -= 1
            }
            index = closeAt + (triple ? 3 : 2)
            let body = Array(scalars[bodyStart..<bodyEnd])
            let tag = try classify(body, triple: triple, offset: tagStart)
            pieces.append(.tag(tag, stripBefore: stripBefore, stripAfter: stripAfter))
        }
        flush(&pieces)
    }

    /// The index of the `}}` (or `}}}`) ending the tag, skipping quoted strings.
    private func findTagEnd(from start: Int, triple: Bool) -> Int? {
        var index = start
        var quote: Unicode.Scalar?
        while index < scalars.count {
            let scalar = scalars[index]
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == "}", index + 1 < scalars.count, scalars[index + 1] == "}" {
                if triple {
                    if index + 2 < scalars.count, scalars[index + 2] == "}" { return index }
                } else {
                    return index
                }
            }
            index += 1
        }
        return nil
    }

    private func find(_ marker: [Unicode.Scalar], from start: Int) -> Int? {
        guard marker.count <= scalars.count else { return nil }
        var index = start
        while index + marker.count <= scalars.count {
            if scalars[index..<index + marker.count].elementsEqual(marker) { return index }
            index += 1
        }
        return nil
    }

    private func classify(_ body: [Unicode.Scalar], triple: Bool, offset: Int) throws(Failure) -> Tag {
        if triple { return .output(escaped: false, body: body, offset: offset) }
        guard let first = body.first else { throw Failure(message: "empty tag {{}}", position: offset) }
        switch first {
        case "!": return .comment
        case "&": return .output(escaped: false, body: Array(body.dropFirst()), offset: offset)
        case "#": return .open(body: Array(body.dropFirst()), offset: offset)
        case "/":
            var name = ""
            name.unicodeScalars.append(contentsOf: body.dropFirst())
            return .close(name: name.trimmingCharacters(in: .whitespaces), offset: offset)
        case ">": throw Failure(message: "partials ({{> …}}) are not supported", position: offset)
        case "^": throw Failure(message: "inverted sections ({{^…}}) are not supported", position: offset)
        default:
            let trimmed = Array(body.drop { $0.properties.isWhitespace })
            if trimmed.starts(with: Array("else".unicodeScalars))
                && (trimmed.count == 4 || trimmed[4].properties.isWhitespace || trimmed[4] == "~")
            {
                return .elseTag(body: Array(trimmed.dropFirst(4)), offset: offset)
            }
            return .output(escaped: true, body: body, offset: offset)
        }
    }

    /// `{{~` trims whitespace before the tag, `~}}` after it.
    private mutating func applyWhitespaceControl() {
        for index in pieces.indices {
            guard case .tag(_, let before, let after) = pieces[index] else { continue }
            if before, index > 0, case .text(let text) = pieces[index - 1] {
                pieces[index - 1] = .text(String(text.reversed().drop { $0.isWhitespace }.reversed()))
            }
            if after, index + 1 < pieces.count, case .text(let text) = pieces[index + 1] {
                pieces[index + 1] = .text(String(text.drop { $0.isWhitespace }))
            }
        }
    }

    // MARK: - Structure

    /// Nodes up to the end, or up to an `{{else}}` or `{{/…}}` tag, which is returned.
    private mutating func parseNodes(depth: Int) throws(Failure) -> ([Template.Node], Tag?) {
        var nodes: [Template.Node] = []
        while cursor < pieces.count {
            let piece = pieces[cursor]
            cursor += 1
            switch piece {
            case .text(let text):
                if !text.isEmpty { nodes.append(.text(text)) }
            case .tag(let tag, _, _):
                switch tag {
                case .comment:
                    continue
                case .output(let escaped, let body, let offset):
                    var expressions = ExpressionParser(body, offset: offset)
                    nodes.append(.output(try expressions.parseStatement(), escaped: escaped))
                case .open(let body, let offset):
                    nodes.append(.block(try parseBlock(body, offset: offset, depth: depth + 1)))
                case .close, .elseTag:
                    return (nodes, tag)
                }
            }
        }
        return (nodes, nil)
    }

    private mutating func parseBlock(_ body: [Unicode.Scalar], offset: Int, depth: Int) throws(Failure)
        -> Template.Block
    {
        guard depth <= Self.maxDepth else {
            throw Failure(message: "blocks nested deeper than \(Self.maxDepth)", position: offset)
        }
        var expressions = ExpressionParser(body, offset: offset)
        var block = try expressions.parseBlockHead()
        let (nodes, end) = try parseNodes(depth: depth)
        block.body = nodes
        switch end {
        case .close(let name, let closeOffset)?:
            guard name == block.name else {
                throw Failure(
                    message: "{{/\(name)}} does not close {{#\(block.name)}}", position: closeOffset)
            }
        case .elseTag(let elseBody, let elseOffset)?:
            if elseBody.allSatisfy({ $0.properties.isWhitespace }) {
                let (inverse, inverseEnd) = try parseNodes(depth: depth)
                block.inverse = inverse
                guard case .close(let name, let closeOffset)? = inverseEnd else {
                    throw Failure(message: "{{#\(block.name)}} is not closed", position: offset)
                }
                guard name == block.name else {
                    throw Failure(
                        message: "{{/\(name)}} does not close {{#\(block.name)}}", position: closeOffset)
                }
            } else {
                // `{{else if x}}`: a nested block that shares this block's closing tag.
                cursor -= 1
                pieces[cursor] = .tag(
                    .open(body: elseBody, offset: elseOffset), stripBefore: false, stripAfter: false)
                let chained = try parseChained(block.name, offset: elseOffset, depth: depth + 1)
                block.inverse = [.block(chained)]
            }
        case nil:
            throw Failure(message: "{{#\(block.name)}} is not closed", position: offset)
        default:
            throw Failure(message: "unexpected tag in {{#\(block.name)}}", position: offset)
        }
        return block
    }

    /// The block of an `{{else name …}}`; it ends at the outer block's closing tag, which it leaves unread
    /// only in the sense that it checks the name against `outer`.
    private mutating func parseChained(_ outer: String, offset: Int, depth: Int) throws(Failure)
        -> Template.Block
    {
        guard depth <= Self.maxDepth else {
            throw Failure(message: "blocks nested deeper than \(Self.maxDepth)", position: offset)
        }
        guard case .tag(.open(let body, _), _, _) = pieces[cursor] else {
            throw Failure(message: "bad else chain", position: offset)
        }
        cursor += 1
        var expressions = ExpressionParser(body, offset: offset)
        var block = try expressions.parseBlockHead()
        let (nodes, end) = try parseNodes(depth: depth)
        block.body = nodes
        switch end {
        case .close(let name, let closeOffset)?:
            guard name == outer else {
                throw Failure(message: "{{/\(name)}} does not close {{#\(outer)}}", position: closeOffset)
            }
        case .elseTag(let elseBody, let elseOffset)?:
            if elseBody.allSatisfy({ $0.properties.isWhitespace }) {
                let (inverse, inverseEnd) = try parseNodes(depth: depth)
                block.inverse = inverse
                guard case .close(let name, let closeOffset)? = inverseEnd else {
                    throw Failure(message: "{{#\(outer)}} is not closed", position: offset)
                }
                guard name == outer else {
                    throw Failure(message: "{{/\(name)}} does not close {{#\(outer)}}", position: closeOffset)
                }
            } else {
                cursor -= 1
                pieces[cursor] = .tag(
                    .open(body: elseBody, offset: elseOffset), stripBefore: false, stripAfter: false)
                block.inverse = [.block(try parseChained(outer, offset: elseOffset, depth: depth + 1))]
            }
        case nil:
            throw Failure(message: "{{#\(outer)}} is not closed", position: offset)
        default:
            throw Failure(message: "unexpected tag in {{#\(outer)}}", position: offset)
        }
        return block
    }
}

/// Parses the inside of one tag: `name param… key=value… as |a b|`.
struct ExpressionParser {
    private typealias Failure = Template.Failure
    private let scalars: [Unicode.Scalar]
    private let offset: Int
    private var index = 0
    private var depth = 0

    init(_ scalars: [Unicode.Scalar], offset: Int) {
        self.scalars = scalars
        self.offset = offset
    }

    private var position: Int { offset + index }

    private mutating func skipSpaces() {
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
    }

    private var atEnd: Bool { index >= scalars.count }

    /// A whole `{{…}}` output tag: a path, a literal, or a helper call with arguments.
    mutating func parseStatement() throws(Template.Failure) -> Template.Expression {
        skipSpaces()
        let start = position
        let head = try parseOperand()
        let (params, hash) = try parseArguments(until: nil)
        skipSpaces()
        guard atEnd else { throw Failure(message: "unexpected text in tag", position: position) }
        return try call(head, params, hash, start)
    }

    /// The head of a `{{#name …}}` tag; the body is filled in by the caller.
    mutating func parseBlockHead() throws(Template.Failure) -> Template.Block {
        skipSpaces()
        let start = position
        guard case .path(let path) = try parseOperand(), path.segments.count == 1, path.depth == 0,
            !path.isData, !path.isExplicitContext
        else {
            throw Failure(message: "a block must start with a helper name", position: start)
        }
        let (params, hash) = try parseArguments(until: nil)
        skipSpaces()
        var blockParams: [String] = []
        if matchWord("as") {
            skipSpaces()
            guard !atEnd, scalars[index] == "|" else {
                throw Failure(message: "expected |name| after as", position: position)
            }
            index += 1
            while true {
                skipSpaces()
                guard !atEnd else { throw Failure(message: "unclosed block parameters", position: position) }
                if scalars[index] == "|" {
                    index += 1
                    break
                }
                let name = readIdentifier()
                guard !name.isEmpty else {
                    throw Failure(message: "bad block parameter name", position: position)
                }
                blockParams.append(name)
            }
        }
        skipSpaces()
        guard atEnd else { throw Failure(message: "unexpected text in block tag", position: position) }
        return Template.Block(
            name: path.segments[0], params: params, hash: hash, blockParams: blockParams, body: [],
            inverse: nil,
            position: start)
    }

    private mutating func matchWord(_ word: String) -> Bool {
        let letters = Array(word.unicodeScalars)
        guard index + letters.count <= scalars.count,
            scalars[index..<index + letters.count].elementsEqual(letters)
        else { return false }
        let after = index + letters.count
        guard after == scalars.count || scalars[after].properties.isWhitespace || scalars[after] == "|" else {
            return false
        }
        index = after
        return true
    }

    private func call(
        _ head: Template.Expression, _ params: [Template.Expression], _ hash: [(String, Template.Expression)],
        _ start: Int
    ) throws(Failure) -> Template.Expression {
        if params.isEmpty && hash.isEmpty { return head }
        guard case .path(let path) = head, path.segments.count == 1, path.depth == 0, !path.isData,
            !path.isExplicitContext
        else {
            throw Failure(message: "arguments follow something that is not a helper name", position: start)
        }
        return .call(name: path.segments[0], params: params, hash: hash, position: start)
    }

    /// Positional arguments, then `key=value` pairs; stops at `)` when in a sub-expression, or at `as |`.
    private mutating func parseArguments(until closing: Unicode.Scalar?) throws(Failure) -> (
        [Template.Expression], [(String, Template.Expression)]
    ) {
        var params: [Template.Expression] = []
        var hash: [(String, Template.Expression)] = []
        while true {
            skipSpaces()
            if atEnd { return (params, hash) }
            if let closing, scalars[index] == closing { return (params, hash) }
            let save = index
            if matchWord("as") {
                skipSpaces()
                if !atEnd, scalars[index] == "|" {
                    index = save
                    return (params, hash)
                }
                index = save
            }
            // `key=value`?
            let keyStart = index
            let key = readIdentifier()
            if !key.isEmpty, !atEnd, scalars[index] == "=" {
                index += 1
                skipSpaces()
                hash.append((key, try parseOperand()))
                continue
            }
            index = keyStart
            guard hash.isEmpty else {
                throw Failure(message: "a positional argument after key=value arguments", position: position)
            }
            params.append(try parseOperand())
        }
    }

    private mutating func readIdentifier() -> String {
        var name = ""
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar.properties.isWhitespace || "=~}{)(|.[/'\"".unicodeScalars.contains(scalar) { break }
            name.unicodeScalars.append(scalar)
            index += 1
        }
        return name
    }

    /// A literal, a sub-expression or a path.
    private mutating func parseOperand() throws(Failure) -> Template.Expression {
        skipSpaces()
        guard !atEnd else { throw Failure(message: "expected a value", position: position) }
        let start = position
        let scalar = scalars[index]
        if scalar == "\"" || scalar == "'" {
            index += 1
            var text = ""
            while index < scalars.count, scalars[index] != scalar {
                // A backslash escapes the quote.
                if scalars[index] == "\\", index + 1 < scalars.count, scalars[index + 1] == scalar {
                    index += 1
                }
                text.unicodeScalars.append(scalars[index])
                index += 1
            }
            guard index < scalars.count else { throw Failure(message: "unclosed string", position: start) }
            index += 1
            return .literal(.string(text))
        }
        if scalar == "(" {
            guard depth < TemplateParser.maxDepth else {
                throw Failure(message: "sub-expressions nested too deep", position: start)
            }
            index += 1
            depth += 1
            defer { depth -= 1 }
            skipSpaces()
            let headStart = position
            let head = try parseOperand()
            let (params, hash) = try parseArguments(until: ")")
            guard !atEnd, scalars[index] == ")" else {
                throw Failure(message: "unclosed (", position: start)
            }
            index += 1
            guard case .path(let path) = head, path.segments.count == 1, path.depth == 0, !path.isData,
                !path.isExplicitContext
            else {
                throw Failure(message: "a sub-expression must start with a helper name", position: headStart)
            }
            return .call(name: path.segments[0], params: params, hash: hash, position: headStart)
        }
        if scalar == "-" || ("0"..."9").contains(scalar) {
            let save = index
            var text = ""
            text.unicodeScalars.append(scalar)
            index += 1
            while index < scalars.count,
                ("0"..."9").contains(scalars[index]) || scalars[index] == "."
            {
                text.unicodeScalars.append(scalars[index])
                index += 1
            }
            let boundary =
                index == scalars.count || scalars[index].properties.isWhitespace || scalars[index] == ")"
            if boundary, let value = Double(text) { return .literal(.number(value)) }
            index = save
        }
        let path = try parsePath()
        if path.depth == 0, !path.isData, !path.isExplicitContext, path.segments.count == 1 {
            switch path.segments[0] {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null", "undefined": return .literal(.null)
            default: break
            }
        }
        return .path(path)
    }

    private mutating func parsePath() throws(Failure) -> Template.Path {
        var path = Template.Path(position: position)
        if !atEnd, scalars[index] == "@" {
            path.isData = true
            index += 1
        }
        while index + 2 < scalars.count, scalars[index] == ".", scalars[index + 1] == ".",
            scalars[index + 2] == "/"
        {
            path.depth += 1
            index += 3
        }
        var segments: [String] = []
        while true {
            guard !atEnd else { break }
            if scalars[index] == "[" {
                index += 1
                var literal = ""
                while index < scalars.count, scalars[index] != "]" {
                    literal.unicodeScalars.append(scalars[index])
                    index += 1
                }
                guard index < scalars.count else {
                    throw Failure(message: "unclosed [ in a path", position: position)
                }
                index += 1
                segments.append(literal)
            } else {
                let name = readIdentifier()
                guard !name.isEmpty else { break }
                segments.append(name)
            }
            if index < scalars.count, scalars[index] == "." || scalars[index] == "/" {
                index += 1
                continue
            }
            break
        }
        guard !segments.isEmpty || path.depth > 0 else {
            throw Failure(message: "expected a name", position: position)
        }
        if segments.first == "this" || segments.first == "." {
            path.isExplicitContext = true
            segments.removeFirst()
        }
        path.segments = segments
        return path
    }
}
