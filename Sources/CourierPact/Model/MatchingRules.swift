import CourierPrimitives

/// The matching rules of a request or response, by category and path: which values must be
/// equal and which need only have the same type, match a regex, a date format, and so on.
public struct MatchingRules: Sendable, Hashable {
    /// Where a rule applies.
    public enum Category: String, Sendable, Hashable, CaseIterable {
        /// The body; keys are JSON paths such as `$.items[*].id`.
        case body
        /// Header fields; keys are field names.
        case header
        /// Query parameters; keys are parameter names.
        case query
        /// The request path; the key is `$`.
        case path
        /// The response status; the key is `$`.
        case status
    }

    /// The rules, by category, then by path (a JSON path, a header or parameter name, or `$`).
    public var rules: [Category: [String: RuleList]]

    /// Creates rules.
    public init(_ rules: [Category: [String: RuleList]] = [:]) {
        self.rules = rules.filter { !$0.value.isEmpty }
    }

    /// Whether there are none.
    public var isEmpty: Bool { rules.values.allSatisfy(\.isEmpty) }

    /// The rules of one category.
    public subscript(category: Category) -> [String: RuleList] {
        get { rules[category] ?? [:] }
        set { rules[category] = newValue.isEmpty ? nil : newValue }
    }

    /// Adds `rule` at `path` of `category`, after any rules already there.
    public mutating func add(_ rule: MatchingRule, at path: String, in category: Category) {
        self[category][path, default: RuleList([])].matchers.append(rule)
    }
}

/// The matchers at one path, and whether all must pass or any one.
public struct RuleList: Sendable, Hashable {
    /// How the matchers combine.
    public enum Combine: String, Sendable, Hashable {
        /// Every matcher must pass.
        case and = "AND"
        /// One matcher passing is enough.
        case or = "OR"
    }

    /// The matchers.
    public var matchers: [MatchingRule]
    /// How they combine.
    public var combine: Combine

    /// Creates a list.
    public init(_ matchers: [MatchingRule], combine: Combine = .and) {
        self.matchers = matchers
        self.combine = combine
    }
}

/// One matcher of the Pact Specification.
public enum MatchingRule: Sendable, Hashable {
    /// The value must equal the expected one.
    case equality
    /// The value, as text, must match the regular expression (the whole of it).
    case regex(String)
    /// The value must have the expected one's JSON type; arrays may have any length.
    case type
    /// The value must have the expected type, and an array at least `min` and at most `max` items.
    case typeBounded(min: Int?, max: Int?)
    /// The value, as text, must contain this text.
    case include(String)
    /// The value must be an integer (a number, or text of one).
    case integer
    /// The value must be a number with a fractional part.
    case decimal
    /// The value must be a number.
    case number
    /// The value must be `true` or `false` (or text of one).
    case boolean
    /// The value must be null.
    case null
    /// The value must be text in this date format (`yyyy-MM-dd`).
    case date(format: String)
    /// The value must be text in this time format (`HH:mm:ss`).
    case time(format: String)
    /// The value must be text in this date-time format (`yyyy-MM-dd'T'HH:mm:ssXXX`).
    case dateTime(format: String)
    /// The keys of an object are not compared, its values are matched by the expected ones'.
    case values
    /// The value must not be empty (an empty string, array or object, or null).
    case notEmpty
    /// The body must have this content type.
    case contentType(String)
    /// Every key of an object must pass these rules.
    case eachKey([MatchingRule])
    /// Every value of an object or array must pass these rules.
    case eachValue([MatchingRule])
    /// The status must be of this class (`success`, `clientError`, …) or one of these codes.
    case statusCode(StatusClass)
    /// A matcher this library does not apply, kept as read so that writing the pact keeps it.
    case unsupported(JSONValue)

    /// A status class, or a list of statuses.
    public enum StatusClass: Sendable, Hashable {
        /// 100 to 199, 200 to 299, 300 to 399, 400 to 499, 500 to 599, or 400 to 599.
        case information, success, redirect, clientError, serverError, nonError, error
        /// One of these codes.
        case codes([Int])
    }
}
