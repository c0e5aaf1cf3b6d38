/// A pact file that cannot be read or written, with where in the document the problem is.
public struct PactError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is: a JSON path into the document (`$.interactions[2].request.method`), or
    /// the file for a problem with the file as a whole.
    public var path: String
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
