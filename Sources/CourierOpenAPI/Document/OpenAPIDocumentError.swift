import Foundation

/// One problem found in a document: where it is and what is wrong.
public struct OpenAPIProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file the problem is in, relative to the document's folder; nil for the document itself.
    public var file: String?
    /// Where in that file.
    public var pointer: JSONPointer
    /// What is wrong.
    public var message: String

    /// Creates a problem.
    /// - Parameters:
    ///   - file: the referenced file it is in, nil for the document itself.
    ///   - pointer: where.
    ///   - message: what is wrong.
    public init(file: String? = nil, pointer: JSONPointer, message: String) {
        self.file = file
        self.pointer = pointer
        self.message = message
    }

    /// `file#/pointer: message`, with `#/pointer` alone for the document itself.
    public var description: String {
        (file ?? "") + pointer.uriFragment + ": " + message
    }
}

/// Why an OpenAPI document could not be loaded.
public struct OpenAPIDocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; an open set of named values.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name.
        public let name: String
        /// A file could not be read.
        public static let unreadable = Code(name: "unreadable")
        /// The text is not JSON or YAML (or has a duplicate key, or expands too far).
        public static let syntax = Code(name: "syntax")
        /// A `$ref` names a file outside the document's folder, or a file by an absolute path.
        public static let referenceOutsideRoot = Code(name: "reference outside the document's folder")
        /// The document is not OpenAPI 3.0 or 3.1.
        public static let unsupportedVersion = Code(name: "unsupported version")
        /// The document breaks the OpenAPI specification; ``OpenAPIDocumentError/problems`` lists each
        /// place.
        public static let invalid = Code(name: "invalid document")
        /// `name`.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// The file at fault.
    public var file: String
    /// The 1-based line of a syntax error.
    public var line: Int?
    /// The 1-based column of a syntax error.
    public var column: Int?
    /// Every problem found, each with its JSON pointer (for ``Code/invalid`` and the reference codes).
    public var problems: [OpenAPIProblem]
    /// A summary.
    public var reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: what went wrong.
    ///   - file: the file at fault.
    ///   - line: the line of a syntax error.
    ///   - column: the column of a syntax error.
    ///   - problems: each problem with its pointer.
    ///   - reason: a summary.
    public init(
        _ code: Code, file: String, line: Int? = nil, column: Int? = nil, problems: [OpenAPIProblem] = [],
        reason: String
    ) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.problems = problems
        self.reason = reason
    }

    /// The summary, the place of a syntax error, and one line per problem.
    public var description: String {
        var text = "\(file)"
        if let line, let column { text += ":\(line):\(column)" }
        text += ": \(reason)"
        for problem in problems { text += "\n  " + problem.description }
        return text
    }
}
