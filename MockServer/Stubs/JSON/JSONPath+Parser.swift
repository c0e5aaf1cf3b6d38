import CourierPrimitives

extension JSONPath {
    /// A recursive-descent parser over the expression's scalars.
    struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0
        /// How deeply filters nest (`!`, parentheses, filters inside filters) at this point.
        var depth = 0
        /// Deeper expressions are refused: each level is a stack frame, and a million `!` or `(` would
        /// overflow the stack of the thread parsing a mapping.
        static let maxDepth = 64

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        var atEnd: Bool { position >= scalars.count }
        var peek: Unicode.Scalar? { atEnd ? nil : scalars[position] }

        mutating func advance() { position += 1 }

        mutating func skipSpaces() {
            while let scalar = peek, scalar == " " || scalar == "\t" { advance() }
        }

        mutating func expect(_ scalar: Unicode.Scalar) throws {
            skipSpaces()
            guard peek == scalar else {
                throw SyntaxError(description: "expected '\(scalar)' at \(position)")
            }
            advance()
        }

        func startsWith(_ text: String) -> Bool {
            let wanted = Array(text.unicodeScalars)
            guard position + wanted.count <= scalars.count else { return false }
            return Array(scalars[position..<position + wanted.count]) == wanted
        }

        mutating func parseSegments(stopAt stops: Set<Unicode.Scalar>) throws -> [Segment] {
            var segments: [Segment] = []
            while let scalar = peek, !stops.contains(scalar) {
                if scalar == "." {
                    advance()
                    if peek == "." {
                        advance()
                        if peek == "*" {
                            advance()
                            segments.append(.recursive(nil))
                        } else if peek == "[" {
                            segments.append(.recursive(nil))
                        } else {
                            segments.append(.recursive(parseName()))
                        }
                    } else if peek == "*" {
                        advance()
                        segments.append(.wildcard)
                    } else {
                        let name = parseName()
                        guard !name.isEmpty else {
                            throw SyntaxError(description: "empty name at \(position)")
                        }
                        if name == "length" && startsWith("()") {
                            position += 2
                            segments.append(.length)
                        } else {
                            segments.append(.child(name))
                        }
                    }
                } else if scalar == "[" {
                    advance()
                    segments.append(try parseBracket())
                } else {
                    break
                }
            }
            return segments
        }

        mutating func parseName() -> String {
            var name = ""
            while let scalar = peek, scalar != ".", scalar != "[", scalar != " ", scalar != ")",
                scalar != "(",
                scalar != "=",
                scalar != "!", scalar != "<", scalar != ">", scalar != "&", scalar != "|", scalar != "]"
            {
                name.unicodeScalars.append(scalar)
                advance()
            }
            return name
        }

        mutating func parseBracket() throws -> Segment {
            skipSpaces()
            if peek == "*" {
                advance()
                try expect("]")
                return .wildcard
            }
            if peek == "?" {
                advance()
                try expect("(")
                let filter = try parseOr()
                try expect(")")
                try expect("]")
                return .filter(filter)
            }
            if peek == "'" || peek == "\"" {
                var names: [String] = []
                repeat {
                    skipSpaces()
                    if peek == "," { advance() }
                    skipSpaces()
                    names.append(try parseQuoted())
                    skipSpaces()
                } while peek == ","
                try expect("]")
                return names.count == 1 ? .child(names[0]) : .names(names)
            }
            // Indices, unions or a slice.
            var numbers: [Int?] = []
            var isSlice = false
            var current = ""
            while let scalar = peek, scalar != "]" {
                if scalar == ":" {
                    isSlice = true
                    numbers.append(Int(current.trimmed(of: " ")))
                    current = ""
                } else if scalar == "," {
                    numbers.append(Int(current.trimmed(of: " ")))
                    current = ""
                } else {
                    current.unicodeScalars.append(scalar)
                }
                advance()
            }
            numbers.append(Int(current.trimmed(of: " ")))
            try expect("]")
            if isSlice {
                return .slice(start: numbers.first ?? nil, end: numbers.count > 1 ? numbers[1] : nil)
            }
            let indices = numbers.compactMap { $0 }
            guard indices.count == numbers.count, !indices.isEmpty else {
                throw SyntaxError(description: "invalid index at \(position)")
            }
            return .indices(indices)
        }

        mutating func parseQuoted() throws -> String {
            guard let quote = peek, quote == "'" || quote == "\"" else {
                throw SyntaxError(description: "expected a quoted string at \(position)")
            }
            advance()
            var text = ""
            while let scalar = peek, scalar != quote {
                if scalar == "\\" {
                    advance()
                    guard let escaped = peek else { break }
                    text.unicodeScalars.append(escaped)
                } else {
                    text.unicodeScalars.append(scalar)
                }
                advance()
            }
            guard peek == quote else { throw SyntaxError(description: "unterminated string") }
            advance()
            return text
        }

        mutating func parseOr() throws -> Filter {
            var terms = [try parseAnd()]
            skipSpaces()
            while startsWith("||") {
                position += 2
                terms.append(try parseAnd())
                skipSpaces()
            }
            return terms.count == 1 ? terms[0] : .or(terms)
        }

        mutating func parseAnd() throws -> Filter {
            var terms = [try parseUnary()]
            skipSpaces()
            while startsWith("&&") {
                position += 2
                terms.append(try parseUnary())
                skipSpaces()
            }
            return terms.count == 1 ? terms[0] : .and(terms)
        }

        mutating func parseUnary() throws -> Filter {
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maxDepth else {
                throw SyntaxError(description: "filter nested deeper than \(Self.maxDepth) at \(position)")
            }
            skipSpaces()
            if peek == "!" && !startsWith("!=") {
                advance()
                return .not(try parseUnary())
            }
            if peek == "(" {
                advance()
                let inner = try parseOr()
                try expect(")")
                return inner
            }
            let left = try parseOperand()
            skipSpaces()
            for op in ["==", "!=", "<=", ">=", "=~", "<", ">"] where startsWith(op) {
                position += op.unicodeScalars.count
                skipSpaces()
                if op == "=~" {
                    return .regex(left, try parseRegexLiteral())
                }
                return .compare(left, op, try parseOperand())
            }
            return .exists(left)
        }

        mutating func parseRegexLiteral() throws -> RegexBox {
            guard peek == "/" else { throw SyntaxError(description: "expected /regex/ at \(position)") }
            advance()
            var pattern = ""
            while let scalar = peek, scalar != "/" {
                if scalar == "\\" {
                    pattern.unicodeScalars.append(scalar)
                    advance()
                }
                if let next = peek { pattern.unicodeScalars.append(next) }
                advance()
            }
            try expect("/")
            var caseInsensitive = false
            if peek == "i" {
                caseInsensitive = true
                advance()
            }
            return try RegexBox(pattern, caseInsensitive: caseInsensitive)
        }

        mutating func parseOperand() throws -> Operand {
            skipSpaces()
            guard let scalar = peek else { throw SyntaxError(description: "unexpected end of filter") }
            switch scalar {
            case "@":
                advance()
                return .current(try parseSegments(stopAt: [" ", ")", "=", "!", "<", ">", "&", "|"]))
            case "$":
                advance()
                return .root(try parseSegments(stopAt: [" ", ")", "=", "!", "<", ">", "&", "|"]))
            case "'", "\"":
                return .literal(.string(try parseQuoted()))
            default:
                var text = ""
                while let next = peek, next != " ", next != ")", next != "&", next != "|", next != "=",
                    next != "!",
                    next != "<", next != ">"
                {
                    text.unicodeScalars.append(next)
                    advance()
                }
                if text == "true" { return .literal(.bool(true)) }
                if text == "false" { return .literal(.bool(false)) }
                if text == "null" { return .literal(.null) }
                if let value = Int64(text) { return .literal(.int(value)) }
                if let value = Double(text) { return .literal(.double(value)) }
                if let json = JSONValue.parseOrNil(text) { return .literal(json) }
                throw SyntaxError(description: "invalid literal '\(text)' in filter")
            }
        }
    }
}
