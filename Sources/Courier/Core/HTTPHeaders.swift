/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Order and duplicates are kept as given, because some fields (`Set-Cookie`)
/// may legally appear more than once.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The field name as given.
        public var name: String
        /// The field value.
        public var value: String

        /// Creates a field.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Creates an empty header list.
    public init() { fields = [] }

    /// Creates a header list from fields, in order.
    package init(_ fields: [Field]) { self.fields = fields }

    /// Creates a header list from name/value pairs, in order.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The first value for `name`, compared case-insensitively. Setting replaces
    /// every field with that name; setting `nil` removes them.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            if let newValue {
                replaceOrAdd(name: name, value: newValue)
            } else {
                remove(name: name)
            }
        }
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Makes room for `count` fields in all without growing again.
    package mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// Replaces every field named `name` with one field, or appends it.
    package mutating func replaceOrAdd(name: String, value: String) {
        if let index = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) {
            fields[index].value = value
            var seen = false
            fields.removeAll { field in
                guard field.name.caseInsensitiveEquals(name) else { return false }
                defer { seen = true }
                return seen
            }
        } else {
            fields.append(Field(name: name, value: value))
        }
    }

    /// Removes every field named `name`.
    package mutating func remove(name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The fields merged into a dictionary keyed by name, duplicate values joined
    /// with ", " as RFC 9110 §5.3 allows. Use it only where a dictionary is required.
    package var dictionary: [String: String] {
        var result: [String: String] = [:]
        for field in fields {
            if let existing = result[field.name] {
                result[field.name] = existing + ", " + field.value
            } else {
                result[field.name] = field.value
            }
        }
        return result
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}

extension String {
    /// ASCII case-insensitive equality, as for HTTP field names (RFC 9110 §5.1); no allocation.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        // Most names differ in length, and a native string knows its UTF-8 length.
        guard utf8.count == other.utf8.count else { return false }
        var mine = utf8.makeIterator()
        var theirs = other.utf8.makeIterator()
        while true {
            switch (mine.next(), theirs.next()) {
            case (nil, nil): return true
            case (let a?, let b?):
                if a != b, a | 0x20 != b | 0x20 || !((a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A) {
                    return false
                }
            default: return false
            }
        }
    }
}
