/// One way an actual response differs from what an interaction expects, in Pact's terms.
public struct PactMismatch: Sendable, Hashable, CustomStringConvertible {
    /// Which part differs; the raw values are Pact's mismatch type names.
    public enum Kind: String, Sendable, Hashable {
        /// The status code.
        case status = "StatusMismatch"
        /// A header field.
        case header = "HeaderMismatch"
        /// The body's content type.
        case bodyType = "BodyTypeMismatch"
        /// A value in the body.
        case body = "BodyMismatch"
    }

    /// Which part differs.
    public var kind: Kind
    /// Where: a JSON path into the body (`$.items[0].title`), a header name, or `status`.
    public var path: String
    /// What was expected, as JSON text or plain text.
    public var expected: String
    /// What arrived, as JSON text or plain text.
    public var actual: String
    /// Why they differ, for people.
    public var mismatch: String

    /// Creates a mismatch.
    public init(kind: Kind, path: String, expected: String, actual: String, mismatch: String) {
        self.kind = kind
        self.path = path
        self.expected = expected
        self.actual = actual
        self.mismatch = mismatch
    }

    public var description: String { "\(kind.rawValue) at \(path): \(mismatch)" }
}
