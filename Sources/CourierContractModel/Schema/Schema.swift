/// A JSON Schema subset: enough to describe an API's models, derived from their `Codable`
/// conformances (see `Schema.of(_:)`), and to validate requests against them.
public indirect enum Schema: Sendable, Hashable {
    /// A string with optional length bounds, format and pattern.
    case string(StringRules)
    /// An integer with optional bounds.
    case integer(minimum: Int? = nil, maximum: Int? = nil)
    /// A JSON number with optional bounds.
    case number(minimum: Double? = nil, maximum: Double? = nil)
    /// `true` or `false`.
    case boolean
    /// One of these strings.
    case enumeration([String])
    /// An array of one item schema.
    case array(Schema)
    /// An object with named properties; unknown properties are allowed and ignored.
    case object([Property], required: [String])
    /// An object whose members are all of one schema (a Swift dictionary).
    case map(Schema)
    /// Any JSON value.
    case any
    /// A value that matches at least one of these schemas (JSON Schema's `anyOf`).
    case anyOf([Schema])
    /// A value that matches exactly one of these schemas (JSON Schema's `oneOf`).
    case oneOf([Schema])
    /// A named model: the OpenAPI writer lists it once under `components` and refers to it.
    case model(String, Schema)
    /// A reference to a named model defined elsewhere in the same document (a recursive model).
    case ref(String)

    /// A plain string with no rules.
    public static let anyString = Schema.string(StringRules())

    /// One property of an object schema.
    public struct Property: Sendable, Hashable {
        /// The JSON key.
        public var name: String
        /// Its schema.
        public var schema: Schema

        /// Creates a property.
        public init(_ name: String, _ schema: Schema) {
            self.name = name
            self.schema = schema
        }
    }

    /// The rules a string must follow.
    public struct StringRules: Sendable, Hashable {
        /// The fewest characters allowed.
        public var minLength: Int?
        /// The most characters allowed.
        public var maxLength: Int?
        /// An OpenAPI format: `email`, `uri` or `date-time`.
        public var format: String?
        /// Literal text the string must start with, such as `p-`.
        public var prefix: String?
        /// Characters allowed after `prefix`; `nil` allows any.
        public var allowed: Set<Character>?
        /// Whether a leading `.` is refused (file names).
        public var noLeadingDot: Bool
        /// The OpenAPI `pattern` saying the same as `prefix`, `allowed` and `noLeadingDot`.
        public var pattern: String?

        /// Creates string rules.
        public init(
            minLength: Int? = nil, maxLength: Int? = nil, format: String? = nil, prefix: String? = nil,
            allowed: Set<Character>? = nil, noLeadingDot: Bool = false, pattern: String? = nil
        ) {
            self.minLength = minLength
            self.maxLength = maxLength
            self.format = format
            self.prefix = prefix
            self.allowed = allowed
            self.noLeadingDot = noLeadingDot
            self.pattern = pattern
        }
    }
}

extension Schema {
    /// A string of `min...max` characters.
    public static func text(_ min: Int = 0, _ max: Int? = nil) -> Schema {
        .string(StringRules(minLength: min, maxLength: max))
    }

    /// An RFC 3339 date-time string.
    public static let dateTime = Schema.string(StringRules(format: "date-time"))
    /// An absolute URI string.
    public static let uri = Schema.string(StringRules(format: "uri"))
    /// An email address string.
    public static let email = Schema.string(StringRules(minLength: 3, maxLength: 254, format: "email"))

    /// A storage file name: letters, digits, `-`, `_` and `.`, not starting with `.`.
    public static let fileName = Schema.string(
        StringRules(
            minLength: 1, maxLength: 100,
            allowed: Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."),
            noLeadingDot: true, pattern: "^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$"))

    /// A server-assigned id: letters, digits and `-`.
    public static let identifier = Schema.string(
        StringRules(
            minLength: 1, maxLength: 64,
            allowed: Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-"),
            pattern: "^[A-Za-z0-9-]{1,64}$"))
}

extension Schema {
    /// The schema inside a named model (itself for any other schema).
    package var unwrapped: Schema {
        if case .model(_, let inner) = self { return inner.unwrapped }
        return self
    }
}
