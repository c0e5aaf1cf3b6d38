import CourierPrimitives
import Foundation

/// YAML text read into a `JSONValue`, the way OpenAPI documents are written.
///
/// Scalars follow YAML 1.2's core schema (`true`, `null`, `~`, `12`, `0x1F`, `1.5e3`, `.inf`); a quoted
/// scalar, or one tagged `!!str`, is always a string. Mapping keys are kept as written, so `200:` is the
/// key `"200"`. Anchors, aliases and `<<` merge keys are honoured. A duplicate key, a key that is not a
/// scalar, a second document in the stream and text that is not YAML are refused with their line and
/// column, and so is a document whose aliases would expand past a bound (an alias bomb).
///
/// ```swift
/// let value = try YAML.parse(Data("openapi: 3.1.0\ninfo: {title: Notes, version: '1'}\n".utf8))
/// let title = value["info"]?["title"]?.stringValue  // "Notes"
/// ```
public enum YAML {
    /// The most nodes a document may expand to, aliases counted each time they are used.
    public static let defaultMaxNodes = 4_000_000

    /// Parses one YAML document.
    /// - Parameters:
    ///   - data: UTF-8 (or UTF-16 with a byte-order mark) YAML text.
    ///   - maxNodes: the most values the document may expand to, counting every use of an alias.
    /// - Returns: the document as a JSON value; an empty stream is `null`.
    /// - Throws: ``YAMLError`` with the line and column of the problem.
    public static func parse(_ data: Data, maxNodes: Int = defaultMaxNodes) throws(YAMLError) -> JSONValue {
        var parser = try YAMLParser(data)
        let documents = try parser.documents()
        guard let document = documents.first else { return .null }
        if documents.count > 1 {
            throw YAMLError(
                line: documents[1].line, column: documents[1].column,
                reason: "a second document in the stream; one document is read")
        }
        var builder = YAMLValueBuilder(maxNodes: maxNodes)
        return try builder.value(of: document)
    }
}

/// Why YAML text could not be read, and where.
public struct YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column of the problem.
    public var column: Int
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - line: the 1-based line.
    ///   - column: the 1-based column.
    ///   - reason: what is wrong.
    public init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `line L, column C: reason`.
    public var description: String { "line \(line), column \(column): \(reason)" }
}
