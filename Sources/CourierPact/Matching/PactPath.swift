/// A matching rule's path, such as `$.items[*].id` or `$['first name']`, parsed into tokens.
struct PactPath: Sendable, Hashable {
    enum Token: Sendable, Hashable {
        case root
        case field(String)
        case index(Int)
        case star
    }

    let tokens: [Token]

    /// Parses `text`; nil when it is not a path Pact writes.
    init?(_ text: String) {
        var tokens: [Token] = []
        var rest = Substring(text)
        guard rest.first == "$" else {
            // Header and query rules are keyed by a name, which is a one-field path.
            guard !text.isEmpty else { return nil }
            self.tokens = [.root, .field(text)]
            return
        }
        rest = rest.dropFirst()
        tokens.append(.root)
        while let first = rest.first {
            if first == "." {
                rest = rest.dropFirst()
                let name = rest.prefix { $0 != "." && $0 != "[" }
                guard !name.isEmpty else { return nil }
                tokens.append(name == "*" ? .star : .field(String(name)))
                rest = rest.dropFirst(name.count)
            } else if first == "[" {
                guard let close = rest.firstIndex(of: "]") else { return nil }
                var inner = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
                if inner == "*" {
                    tokens.append(.star)
                } else if let index = Int(inner) {
                    tokens.append(.index(index))
                } else if inner.count >= 2, let quote = inner.first, quote == "'" || quote == "\"",
                    inner.last == quote
                {
                    inner = inner.dropFirst().dropLast()
                    tokens.append(.field(String(inner)))
                } else {
                    return nil
                }
            } else {
                return nil
            }
        }
        self.tokens = tokens
    }

    /// How well this path matches `actual` (a path of field names and indices below the root) as
    /// a prefix: 0 when it does not, more the more exact its tokens are (Pact's path weights).
    func weight(against actual: [Segment]) -> Int {
        guard tokens.count <= actual.count + 1, tokens.first == .root else { return 0 }
        var weight = 2
        for (token, segment) in zip(tokens.dropFirst(), actual) {
            switch (token, segment) {
            case (.field(let name), .field(let other)) where name == other: weight *= 2
            case (.index(let index), .index(let other)) where index == other: weight *= 2
            case (.star, _): weight *= 1
            default: return 0
            }
        }
        return weight
    }

    /// One step below the root of an actual document.
    enum Segment: Sendable, Hashable {
        case field(String)
        case index(Int)
    }

    /// `actual` written as a JSON path, `$.items[0].title`.
    static func text(of actual: [Segment]) -> String {
        var text = "$"
        for segment in actual {
            switch segment {
            case .field(let name):
                let plain =
                    !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
                text += plain ? ".\(name)" : "['\(name)']"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

extension MatchingRules {
    /// The rules that apply at `actual` in `category`: those of the most specific path that
    /// matches it or one of its parents (rules cascade to children, as Pact's do).
    func best(for actual: [PactPath.Segment], in category: Category) -> RuleList? {
        var best: (weight: Int, length: Int, list: RuleList)?
        for (text, list) in self[category] {
            guard let path = PactPath(text) else { continue }
            let weight = path.weight(against: actual)
            guard weight > 0 else { continue }
            var list = list
            if path.tokens.count < actual.count + 1 {
                // Inherited from a parent: only the matchers that apply to children too.
                list.matchers = list.matchers.filter(\.cascades)
                if list.matchers.isEmpty { continue }
            }
            if let current = best, (weight, path.tokens.count) <= (current.weight, current.length) {
                continue
            }
            best = (weight, path.tokens.count, list)
        }
        return best?.list
    }

    /// The rules written at exactly `actual`, not inherited from a parent.
    func exact(for actual: [PactPath.Segment], in category: Category) -> RuleList? {
        for (text, list) in self[category] {
            guard let path = PactPath(text), path.tokens.count == actual.count + 1,
                path.weight(against: actual) > 0
            else { continue }
            return list
        }
        return nil
    }

    /// The rules for a header or query parameter, by name without regard to case.
    func named(_ name: String, in category: Category) -> RuleList? {
        self[category].first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

extension MatchingRule {
    /// Whether the matcher applies to the children of its path as well (a type matcher does; one
    /// about an object's keys or a collection's items does not).
    var cascades: Bool {
        switch self {
        case .values, .eachKey, .eachValue, .notEmpty, .contentType, .statusCode: false
        default: true
        }
    }
}
