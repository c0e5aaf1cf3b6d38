import Courier

/// One path segment built from user input, percent-encoded and checked.
///
/// An empty segment, `.`, `..`, or one containing `/` or a control character (CR, LF,
/// NUL…) is refused with `.invalidURL`, so a user-supplied id cannot walk the path
/// (`../admin`), add segments or smuggle line breaks.
///
/// ```swift
/// let id = "n1"  // from user input
/// var path: EndpointPath { "/notes/\(id)/tags" }  // a refused segment fails the request
/// let checked = try PathComponent.path("notes", id, "tags")  // "/notes/n1/tags"
/// ```
public struct PathComponent: Sendable, Hashable, CustomStringConvertible {
    /// The percent-encoded segment, ready to put in a path.
    package let encoded: String

    /// Checks and encodes a segment.
    /// - Throws: `CourierError` with code `.invalidURL` for an empty segment, `.`, `..`,
    ///   or a segment containing `/` or a control character.
    public init(_ segment: String) throws(CourierError) {
        if let problem = PathComponent.problem(with: segment) {
            throw CourierError(.invalidURL, problem)
        }
        encoded = PercentEncoding.pathSegment(segment)
    }

    /// An integer segment, which is always valid.
    public init(_ number: Int) { encoded = String(number) }

    public var description: String { encoded }

    /// Joins checked segments into an absolute path such as `/notes/42`.
    /// - Throws: `CourierError` with code `.invalidURL` for an unsafe segment.
    public static func path(_ segments: String...) throws(CourierError) -> String {
        var encoded: [String] = []
        for segment in segments { encoded.append(try PathComponent(segment).encoded) }
        return "/" + encoded.joined(separator: "/")
    }

    static func problem(with segment: String) -> String? {
        switch segment {
        case "": "an empty path segment is not allowed"
        case ".", "..": "path segment \(segment.debugDescription) is not allowed"
        default:
            if segment.contains("/") {
                "path segment \(segment.debugDescription) must not contain '/'"
            } else if segment.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                "path segment \(segment.debugDescription) must not contain control characters (CR, LF, NUL…)"
            } else {
                nil
            }
        }
    }
}

/// An endpoint's path, written as a string with interpolations: `"/notes/\(id)"` percent-encodes
/// `id` as one segment, and a segment that would walk the path (empty, `.`, `..`, or holding
/// `/` or a control character) is recorded so that building the request fails with
/// `.invalidURL` and a clear message. `\(raw: text)` inserts text as it is, unchecked: for a
/// part of the path that is yours (`"/\(raw: version)/notes"`), never for user input.
public struct EndpointPath: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The path as built, with segments percent-encoded.
    package let text: String
    /// Why a segment was refused, if one was.
    package let problem: String?

    /// A path from text taken as it is: a `String` path is read this way.
    package init(_ text: String) {
        self.text = text
        problem = nil
    }

    public init(stringLiteral value: String) { self.init(value) }

    public init(stringInterpolation: StringInterpolation) {
        text = stringInterpolation.text
        problem = stringInterpolation.problem
    }

    public var description: String { text }

    /// Builds an `EndpointPath` from literals and interpolations.
    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        var problem: String?

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) { text += literal }

        /// A checked, percent-encoded path segment.
        mutating func appendSegment(_ segment: String) {
            if let refused = PathComponent.problem(with: segment) {
                problem = problem ?? refused
            } else {
                text += PercentEncoding.pathSegment(segment)
            }
        }

        /// A checked segment, already encoded.
        public mutating func appendInterpolation(_ component: PathComponent) { text += component.encoded }

        /// Any other value, as one checked, percent-encoded segment made of its description:
        /// with `id = "b1?admin=true"`, `"/bookmarks/\(id)"` is `/bookmarks/b1%3Fadmin=true`, and a
        /// value that would walk or add to the path (`..`, `a/b`) fails the request with
        /// `.invalidURL`. Write `\(raw: text)` to insert text as it is.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            appendSegment(value.description)
        }

        /// Text inserted as it is, unchecked and unencoded: for a part of the path that is yours,
        /// never for user input.
        public mutating func appendInterpolation(raw text: String) { self.text += text }
    }
}
