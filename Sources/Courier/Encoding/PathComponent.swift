/// One path segment built from user input, percent-encoded and checked.
///
/// An empty segment, `.`, `..`, or one containing `/` or a control character (CR, LF,
/// NUL…) is refused with `.invalidURL`, so a user-supplied id cannot walk the path
/// (`../admin`), add segments or smuggle line breaks.
///
/// ```swift
/// var path: String { "/posts/\(segment: id)/comments" }      // in a non-throwing getter
/// let path = try PathComponent.path("posts", id, "comments") // "/posts/…/comments"
/// ```
public struct PathComponent: Sendable, Hashable, CustomStringConvertible {
    /// The percent-encoded segment, ready to put in a path.
    public let encoded: String

    /// Checks and encodes a segment.
    /// - Throws: `CourierError` with code `.invalidURL` for an empty segment, `.`, `..`,
    ///   or a segment containing `/` or a control character.
    public init(_ segment: String) throws {
        if let problem = PathComponent.problem(with: segment) {
            throw CourierError(.invalidURL, problem)
        }
        encoded = PercentEncoding.pathSegment(segment)
    }

    /// An integer segment, which is always valid.
    public init(_ number: Int) { encoded = String(number) }

    public var description: String { encoded }

    /// Joins checked segments into an absolute path such as `/posts/42`.
    /// - Throws: `CourierError` with code `.invalidURL` for an unsafe segment.
    public static func path(_ segments: String...) throws -> String {
        try "/" + segments.map { try PathComponent($0).encoded }.joined(separator: "/")
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

    /// Marks an invalid segment inside a path string built by interpolation, where no error
    /// can be thrown; `RequestBuilding.url(path:base:)` finds the mark and throws.
    static let invalidMark: Character = "\u{0}"
}

extension DefaultStringInterpolation {
    /// Interpolates a checked, percent-encoded path segment: `"/posts/\(segment: id)"`.
    ///
    /// An unsafe segment (empty, `.`, `..`, containing `/`) cannot throw here, so it leaves
    /// a mark that makes building the request fail with `.invalidURL` and a clear message.
    public mutating func appendInterpolation(segment: String) {
        if let problem = PathComponent.problem(with: segment) {
            appendLiteral(
                String(PathComponent.invalidMark) + problem + String(PathComponent.invalidMark))
        } else {
            appendLiteral(PercentEncoding.pathSegment(segment))
        }
    }

    /// Interpolates an integer path segment.
    public mutating func appendInterpolation(segment: Int) {
        appendLiteral(String(segment))
    }
}
