/// An ordered list of HTTP header fields with case-insensitive lookup by name.
///
/// Order and duplicates are kept as received, so a handler sees exactly what the client sent.
public struct ServerHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in order, names as received.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates headers from ordered name/value pairs.
    /// - Parameter fields: the fields in order.
    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// Creates headers from a dictionary literal, in literal order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The number of fields, duplicates included.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The first value for `name` (case-insensitive); setting replaces every field of that name.
    public subscript(name: String) -> String? {
        get {
            for field in fields where Self.namesEqual(field.name, name) { return field.value }
            return nil
        }
        set {
            remove(name: name)
            if let newValue { fields.append((name: name, value: newValue)) }
        }
    }

    /// Every value for `name` (case-insensitive), in order.
    /// - Parameter name: the header name.
    /// - Returns: the values; empty when absent.
    public func values(for name: String) -> [String] {
        fields.compactMap { Self.namesEqual($0.name, name) ? $0.value : nil }
    }

    /// Whether a field named `name` (case-insensitive) is present.
    /// - Parameter name: the header name.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesEqual($0.name, name) }
    }

    /// Appends a field, keeping any existing fields of the same name.
    /// - Parameters:
    ///   - name: the header name.
    ///   - value: the header value.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Makes room for `count` fields.
    mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Removes every field named `name` (case-insensitive).
    /// - Parameter name: the header name.
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesEqual($0.name, name) }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// ASCII case-insensitive comparison of two header names, without allocating.
    static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                guard left.count == right.count else { return false }
                for index in 0..<left.count where left[index] != right[index] {
                    let lower = left[index] | 0x20
                    guard lower == right[index] | 0x20, lower >= 0x61, lower <= 0x7A else { return false }
                }
                return true
            }
        }
    }
}
