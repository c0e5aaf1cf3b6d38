/// An HTTP request method.
///
/// A struct rather than an enum so that new methods (WebDAV's `PROPFIND`, say)
/// can be declared by users without a change to Courier.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The method token, uppercased, as sent on the request line.
    public let rawValue: String

    /// Creates a method from its token. The token is uppercased.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// Creates a method from a string literal such as `"PURGE"`.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    public var description: String { rawValue }

    public static let get: HTTPMethod = "GET"
    public static let head: HTTPMethod = "HEAD"
    public static let post: HTTPMethod = "POST"
    public static let put: HTTPMethod = "PUT"
    public static let patch: HTTPMethod = "PATCH"
    public static let delete: HTTPMethod = "DELETE"
    public static let options: HTTPMethod = "OPTIONS"

    // The classic spellings, as enums of request types name them (`var type: RequestType { .POST }`).
    public static let GET = get
    public static let HEAD = head
    public static let POST = post
    public static let PUT = put
    public static let PATCH = patch
    public static let DELETE = delete
    public static let OPTIONS = options

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2).
    public var isIdempotent: Bool {
        switch rawValue {
        case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": true
        default: false
        }
    }
}
