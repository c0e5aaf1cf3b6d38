import Foundation

/// A path template such as `/pets/{id}` or `/files/{name}.{ext}`, matched against a request's path
/// segment by segment: the one template matcher of declarations, documents and stubs.
package struct PathTemplate: Sendable, Hashable {
    /// One segment of the template.
    package enum Segment: Sendable, Hashable {
        /// Text that must be the segment (or its percent-decoded form).
        case literal(String)
        /// Literal pieces around variables: `{id}.json` is pieces `["", ".json"]`, names `["id"]`.
        case pattern(pieces: [String], names: [String])
    }

    /// The template as written.
    package let text: String
    /// Its segments, after the leading `/`.
    package let segments: [Segment]
    /// How many variables it has.
    package let variableCount: Int
    /// The template with its variables' names left out: `/pets/{id}` and `/pets/{petId}` are one path.
    package let shape: [Segment]

    /// Reads a template; `{name}` is a variable, anything else literal text.
    package init(_ text: String) {
        self.text = text
        var parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.first == "" { parts.removeFirst() }
        segments = parts.map(Self.segment)
        variableCount = segments.reduce(0) { count, segment in
            if case .pattern(_, let names) = segment { return count + names.count }
            return count
        }
        shape = segments.map { segment in
            guard case .pattern(let pieces, let names) = segment else { return segment }
            return .pattern(pieces: pieces, names: names.map { _ in "" })
        }
    }

    /// Whether `template` starts with `/` and has no empty segment, so that splitting it at `/`
    /// and joining it again gives it back.
    private static func isTidy(_ template: String) -> Bool {
        var previous: UInt8 = 0
        for byte in template.utf8 {
            if byte == UInt8(ascii: "/"), previous == byte { return false }
            previous = byte
        }
        return template.utf8.first == UInt8(ascii: "/") && previous != UInt8(ascii: "/")
    }

    /// `template` with each `{name}` replaced by `values[name]` (already percent-encoded); a name
    /// without a value stays as it is written.
    package static func fill(_ template: String, with values: [String: String]) -> String {
        // A template with no parameter and nothing to tidy (an empty segment) is its own path.
        if values.isEmpty, isTidy(template) { return template }
        var path = ""
        for segment in template.split(separator: "/") {
            path += "/"
            if segment.first == "{", segment.last == "}",
                let value = values[String(segment.dropFirst().dropLast())]
            {
                path += value
            } else {
                path += segment
            }
        }
        return path
    }

    private static func segment(_ raw: Substring) -> Segment {
        guard raw.contains("{") else { return .literal(String(raw)) }
        var pieces: [String] = []
        var names: [String] = []
        var rest = raw
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            pieces.append(String(rest[..<open]))
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        pieces.append(String(rest))
        return .pattern(pieces: pieces, names: names)
    }

    /// The segments of a request path (still percent-encoded), after its leading `/`; nil when the
    /// path does not start with `/`.
    package static func segments(of path: String) -> [Substring]? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.first == "" else { return nil }
        parts.removeFirst()
        return parts
    }

    /// The raw (still percent-encoded) value of each variable, or nil when `path` does not fit.
    package func match(_ path: String) -> [String: String]? {
        Self.segments(of: path).flatMap(match(segments:))
    }

    /// The raw value of each variable, or nil when the segments do not fit; every variable takes at
    /// least one character.
    package func match(segments given: [Substring]) -> [String: String]? {
        guard segments.count == given.count else { return nil }
        var values: [String: String] = [:]
        for (part, segment) in zip(segments, given) {
            switch part {
            case .literal(let text):
                guard text == segment || text == String(segment).removingPercentEncoding else { return nil }
            case .pattern(let pieces, let names):
                guard Self.bind(pieces, names, segment, into: &values) else { return nil }
            }
        }
        return values
    }

    /// Binds one segment's variables: each takes the text up to the next literal piece (the last takes
    /// the rest), and two variables with nothing between them split after one character.
    private static func bind(
        _ pieces: [String], _ names: [String], _ segment: Substring, into values: inout [String: String]
    ) -> Bool {
        var rest = segment
        guard rest.hasPrefix(pieces[0]) else { return false }
        rest = rest.dropFirst(pieces[0].count)
        for (index, name) in names.enumerated() {
            let next = pieces[index + 1]
            let value: Substring
            if next.isEmpty {
                value = index == names.count - 1 ? rest : rest.prefix(1)
            } else if index == names.count - 1 {
                guard rest.hasSuffix(next) else { return false }
                value = rest.dropLast(next.count)
            } else {
                guard let range = rest.range(of: next) else { return false }
                value = rest[..<range.lowerBound]
            }
            guard !value.isEmpty else { return false }
            values[name] = String(value)
            rest = rest.dropFirst(value.count + next.count)
        }
        return rest.isEmpty
    }
}
