/// Block collections: structure by indentation. A node belongs to its parent when it is indented more
/// than the parent's column (`parent`); a mapping's value may also be a sequence at the mapping's column.
extension YAMLParser {
    /// Reads the block node at the cursor, or the empty node when none is written there.
    /// - Parameters:
    ///   - parent: the parent's column (-1 for a document); the node must be indented more.
    ///   - compact: whether a collection may start on the line of the indicator before it (after `- `
    ///     and `? `, not after a key's `:`).
    ///   - sequenceAtParent: whether a sequence at the parent's own column belongs to it (a mapping value).
    mutating func blockNode(parent: Int, compact: Bool, sequenceAtParent: Bool) throws(YAMLError) -> YAMLNode
    {
        try enter()
        defer { depth -= 1 }
        skipSeparation()
        if endsNode(parent: parent, sequenceAtParent: sequenceAtParent) {
            return .empty(line: line, column: column + 1)
        }
        let parentLine = lastTokenLine
        // Properties on the lines before a node's own line are the node's; those on its line are the
        // key's when the node turns out to be a mapping (`&map\n&key key: value`).
        var outer = Properties()
        var inner = try properties()
        while !inner.isEmpty && line > inner.line {
            outer = try merged(outer, inner)
            let more = (char() == "&" || char() == "!") && !endsNode(parent: parent, sequenceAtParent: false)
            inner = more ? try properties() : Properties()
        }
        if !outer.isEmpty || !inner.isEmpty {
            if endsNode(parent: parent, sequenceAtParent: sequenceAtParent) {
                let both = try merged(outer, inner)
                return attach(both, to: .empty(line: both.line, column: both.column))
            }
            if !inner.isEmpty && char() == "*" { throw error("an alias cannot have an anchor or a tag") }
        }
        let newLine = line > parentLine
        let startColumn = column
        if char() == "-" && Self.isWhiteOrEnd(char(1)) {
            guard newLine || compact else { throw error("a block sequence may not start on this line") }
            if !inner.isEmpty { throw error("a sequence's anchor or tag goes on the line before it") }
            try refuseTabBeforeCollection()
            return attach(outer, to: try blockSequence(column: startColumn))
        }
        if char() == "?" && Self.isWhiteOrEnd(char(1)) {
            guard newLine || compact else { throw error("a block mapping may not start on this line") }
            if !inner.isEmpty { throw error("a mapping's anchor or tag goes on the line before it") }
            try refuseTabBeforeCollection()
            return attach(outer, to: try blockMapping(column: startColumn, firstKey: nil))
        }
        if char() == "|" || char() == ">" {
            return attach(try merged(outer, inner), to: try blockScalar(parent: parent))
        }
        let candidate = try keyCandidate(parent: parent)
        skipBlanks()
        guard isValueIndicator(afterJSONLike: false) else {
            if case .alias = candidate.kind, !outer.isEmpty {
                throw error("an alias cannot have an anchor or a tag", line: outer.line, column: outer.column)
            }
            return attach(try merged(outer, inner), to: candidate)
        }
        guard candidate.line == line else {
            throw error("a mapping key must be on one line", line: candidate.line, column: candidate.column)
        }
        guard newLine || compact else { throw error("a mapping value is not allowed here") }
        let mappingColumn = inner.isEmpty ? startColumn : inner.column - 1
        try refuseTabBeforeCollection(at: mappingColumn)
        return attach(
            outer, to: try blockMapping(column: mappingColumn, firstKey: attach(inner, to: candidate)))
    }

    /// A block collection is indented, or set after `- `, `? ` or `: `, with spaces only: a tab there is
    /// refused, as its width is unknown.
    func refuseTabBeforeCollection(at collectionColumn: Int? = nil) throws(YAMLError) {
        var index = lineStart + (collectionColumn ?? column) - 1
        while index >= lineStart, Self.isBlank(text[index]) {
            if text[index] == "\t" { throw error("a tab before a block collection; indent with spaces") }
            index -= 1
        }
    }

    /// Whether nothing more of a node at this indentation is written at the cursor.
    func endsNode(parent: Int, sequenceAtParent: Bool) -> Bool {
        if atEnd || atMarker("---") || atMarker("...") { return true }
        guard line > lastTokenLine else { return false }
        if column > parent { return false }
        return !(sequenceAtParent && column == parent && char() == "-" && Self.isWhiteOrEnd(char(1)))
    }

    func attach(_ properties: Properties, to node: YAMLNode) -> YAMLNode {
        var node = node
        if let tag = properties.tag { node.tag = tag }
        if let anchor = properties.anchor { node.anchor = anchor }
        if !properties.isEmpty {
            node.line = properties.line
            node.column = properties.column
        }
        return node
    }

    /// `:` as a value indicator: followed by white space, or right after a quoted or flow key in flow.
    func isValueIndicator(afterJSONLike: Bool, inFlow: Bool = false) -> Bool {
        guard char() == ":" else { return false }
        if Self.isWhiteOrEnd(char(1)) { return true }
        return inFlow && (afterJSONLike || Self.isFlowIndicator(char(1)))
    }

    /// A node that may be an implicit key: an alias, a flow collection, a quoted or a plain scalar.
    mutating func keyCandidate(parent: Int) throws(YAMLError) -> YAMLNode {
        if isValueIndicator(afterJSONLike: false) { return .empty(line: line, column: column + 1) }
        switch char() {
        case "*": return try alias()
        case "[", "{": return try flowCollection()
        case "\"", "'": return try quotedScalar()
        default: return try plainScalar(parent: parent, inFlow: false)
        }
    }

    /// `*name`.
    mutating func alias() throws(YAMLError) -> YAMLNode {
        let startLine = line
        let startColumn = column + 1
        advance()
        let name = try anchorName()
        lastTokenLine = line
        return YAMLNode(kind: .alias(name), line: startLine, column: startColumn)
    }

    /// `- item` lines at `column`.
    mutating func blockSequence(column sequenceColumn: Int) throws(YAMLError) -> YAMLNode {
        let startLine = line
        var items: [YAMLNode] = []
        while true {
            advance()
            lastTokenLine = line
            items.append(try blockNode(parent: sequenceColumn, compact: true, sequenceAtParent: false))
            skipSeparation()
            if atEnd || atMarker("---") || atMarker("...") { break }
            guard line > lastTokenLine else { throw error("expected a line break after a sequence entry") }
            if column < sequenceColumn { break }
            guard column == sequenceColumn else { throw error("a sequence entry is indented wrongly") }
            guard char() == "-" && Self.isWhiteOrEnd(char(1)) else { break }
        }
        return YAMLNode(kind: .sequence(items), line: startLine, column: sequenceColumn + 1)
    }

    /// `key: value` and `? key` / `: value` entries at `column`; `firstKey` is an implicit key already
    /// read, the cursor on its `:`.
    mutating func blockMapping(column mappingColumn: Int, firstKey: YAMLNode?) throws(YAMLError) -> YAMLNode {
        let startLine = firstKey?.line ?? line
        var pairs: [(key: YAMLNode, value: YAMLNode)] = []
        var pendingKey = firstKey
        while true {
            let key: YAMLNode
            let value: YAMLNode
            if let firstKey = pendingKey {
                pendingKey = nil
                key = firstKey
                value = try implicitValue(mappingColumn: mappingColumn)
            } else if char() == "?" && Self.isWhiteOrEnd(char(1)) {
                advance()
                lastTokenLine = line
                key = try blockNode(parent: mappingColumn, compact: true, sequenceAtParent: true)
                skipSeparation()
                if column == mappingColumn && line > lastTokenLine && isValueIndicator(afterJSONLike: false) {
                    advance()
                    lastTokenLine = line
                    value = try blockNode(parent: mappingColumn, compact: true, sequenceAtParent: true)
                } else {
                    value = .empty(line: line, column: column + 1)
                }
            } else {
                let properties = try properties()
                guard properties.isEmpty || properties.line == line else {
                    throw error("a key's anchor or tag must be on its line")
                }
                if !properties.isEmpty && char() == "*" {
                    throw error("an alias cannot have an anchor or a tag")
                }
                if char() == "-" && Self.isWhiteOrEnd(char(1)) {
                    throw error("a sequence entry where a mapping key was expected")
                }
                let candidate = attach(properties, to: try keyCandidate(parent: mappingColumn))
                skipBlanks()
                guard isValueIndicator(afterJSONLike: false) else {
                    throw error("could not find the ':' after a mapping key")
                }
                guard candidate.line == line else {
                    throw error(
                        "a mapping key must be on one line", line: candidate.line, column: candidate.column)
                }
                key = candidate
                value = try implicitValue(mappingColumn: mappingColumn)
            }
            pairs.append((key, value))
            skipSeparation()
            if atEnd || atMarker("---") || atMarker("...") { break }
            guard line > lastTokenLine else { throw error("expected a line break after a mapping value") }
            if column < mappingColumn { break }
            guard column == mappingColumn else { throw error("a mapping key is indented wrongly") }
        }
        return YAMLNode(kind: .mapping(pairs), line: startLine, column: mappingColumn + 1)
    }

    /// The value after an implicit key's `:` (the cursor on it).
    private mutating func implicitValue(mappingColumn: Int) throws(YAMLError) -> YAMLNode {
        advance()
        lastTokenLine = line
        return try blockNode(parent: mappingColumn, compact: false, sequenceAtParent: true)
    }
}
