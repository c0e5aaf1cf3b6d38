/// Flow collections: `[a, b]` and `{k: v}`, over any number of lines, with `k: v` pairs inside sequences.
extension YAMLParser {
    /// A flow sequence or mapping, the cursor on its `[` or `{`.
    mutating func flowCollection() throws(YAMLError) -> YAMLNode {
        try enter()
        defer { depth -= 1 }
        let startLine = line
        let startColumn = column + 1
        let isMapping = char() == "{"
        let closer: Unicode.Scalar = isMapping ? "}" : "]"
        advance()
        var items: [YAMLNode] = []
        var pairs: [(key: YAMLNode, value: YAMLNode)] = []
        while true {
            skipSeparation()
            guard let next = char() else {
                throw error("a flow collection is not closed", line: startLine, column: startColumn)
            }
            if next == closer {
                advance()
                break
            }
            if atMarker("---") || atMarker("...") {
                throw error("a document marker inside a flow collection")
            }
            let entryLine = line
            let entryColumn = column + 1
            // `?` always starts an explicit key in flow, as libyaml reads it (`{?foo: bar}` is `foo`).
            let explicit = next == "?"
            if explicit {
                advance()
                skipSeparation()
            }
            var key: YAMLNode
            var isJSONLike = false
            if explicit && (isValueIndicator(afterJSONLike: false, inFlow: true) || atEntryEnd(closer)) {
                key = .empty(line: line, column: column + 1)
            } else if !isMapping && !explicit && isValueIndicator(afterJSONLike: false, inFlow: true) {
                key = .empty(line: line, column: column + 1)
            } else {
                let first = char()
                key = try flowNode()
                isJSONLike = first == "\"" || first == "'" || first == "[" || first == "{"
            }
            skipSeparation()
            if isValueIndicator(afterJSONLike: isJSONLike, inFlow: true) {
                if !explicit && key.line != line {
                    throw error("a key in a flow collection must be on one line with its ':'")
                }
                advance()
                skipSeparation()
                let value =
                    atEntryEnd(closer) ? YAMLNode.empty(line: line, column: column + 1) : try flowNode()
                if isMapping {
                    pairs.append((key, value))
                } else {
                    items.append(
                        YAMLNode(kind: .mapping([(key, value)]), line: entryLine, column: entryColumn))
                }
            } else if isMapping || explicit {
                let value = YAMLNode.empty(line: line, column: column + 1)
                if isMapping {
                    pairs.append((key, value))
                } else {
                    items.append(
                        YAMLNode(kind: .mapping([(key, value)]), line: entryLine, column: entryColumn))
                }
            } else {
                items.append(key)
            }
            skipSeparation()
            if char() == "," {
                advance()
            } else if char() != closer {
                throw error("expected ',' or '\(Character(closer))', found \(describe(char()))")
            }
        }
        lastTokenLine = line
        let kind: YAMLNode.Kind = isMapping ? .mapping(pairs) : .sequence(items)
        return YAMLNode(kind: kind, line: startLine, column: startColumn)
    }

    /// Whether the cursor is on the `,` or the closer that ends an entry.
    private func atEntryEnd(_ closer: Unicode.Scalar) -> Bool {
        char() == "," || char() == closer
    }

    /// One node inside a flow collection.
    private mutating func flowNode() throws(YAMLError) -> YAMLNode {
        skipSeparation()
        let properties = try properties()
        let next = char()
        if !properties.isEmpty && next == "*" { throw error("an alias cannot have an anchor or a tag") }
        let ends =
            next == nil || next == "," || next == "]" || next == "}"
            || isValueIndicator(afterJSONLike: false, inFlow: true)
        if ends {
            guard !properties.isEmpty else { throw error("expected a value, found \(describe(next))") }
            return attach(properties, to: .empty(line: properties.line, column: properties.column))
        }
        let node: YAMLNode
        switch next {
        case "*": node = try alias()
        case "[", "{": node = try flowCollection()
        case "\"", "'": node = try quotedScalar()
        case "|", ">": throw error("a block scalar inside a flow collection")
        default: node = try plainScalar(parent: -1, inFlow: true)
        }
        return attach(properties, to: node)
    }
}
