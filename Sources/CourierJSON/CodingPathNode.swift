/// A coding path as a list linked towards the root, shared by everything below it; turned into
/// `[CodingKey]` only when someone asks (an error, `codingPath`).
final class CodingPathNode {
    let parent: CodingPathNode?
    let key: any CodingKey

    init(parent: CodingPathNode?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    /// The keys from the root down to `node`.
    static func path(_ node: CodingPathNode?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var current = node
        while let node = current {
            keys.append(node.key)
            current = node.parent
        }
        return keys.reversed()
    }

    /// The path to `node` with `key` appended when there is one.
    static func path(_ node: CodingPathNode?, appending key: PathKey) -> [any CodingKey] {
        var keys = path(node)
        if let key = key.codingKey { keys.append(key) }
        return keys
    }

    /// `node` extended by `key`, or `node` itself when there is no key.
    static func appending(_ node: CodingPathNode?, _ key: PathKey) -> CodingPathNode? {
        guard let key = key.codingKey else { return node }
        return CodingPathNode(parent: node, key: key)
    }
}

/// The path above a value: a node, or the path slot of the keyed container the value is in, whose
/// node is made only when something needs it (an error, or a value that nests a container). A
/// date or URL decoded through a keyed container's generic `decode(_:forKey:)` thus makes no node.
enum PathParent {
    case node(CodingPathNode?)
    case slot(Int)
}

/// The last key of a coding path as the decoder carries it: none (the root), an array position,
/// or a key. A position is kept as a number and becomes a `JSONIndexKey` only when a path is
/// built: walking an array then makes, copies and destroys no `CodingKey` existential per element.
enum PathKey {
    case absent
    case index(Int)
    case key(any CodingKey)

    /// The key as it appears in a coding path; `nil` for `absent`.
    var codingKey: (any CodingKey)? {
        switch self {
        case .absent: nil
        case .index(let index): JSONIndexKey(index: index)
        case .key(let key): key
        }
    }
}

/// An array position in a coding path, named as Foundation names it ("Index 3").
struct JSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

/// A key given as a string: dictionary keys, the custom key strategy's input, `super`.
struct JSONStringKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    static let `super` = JSONStringKey("super")
}

/// Foundation's snake_case conversion: `one_two_three` → `oneTwoThree`, `_one_two_` →
/// `_oneTwo_`; a key without inner underscores is kept as it is.
func convertFromSnakeCase(_ key: String) -> String {
    guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
    var last = key.index(before: key.endIndex)
    while last > first && key[last] == "_" { key.formIndex(before: &last) }
    let core = key[first...last]
    let words = core.split(separator: "_")
    let joined: String
    if words.count == 1 {
        joined = String(core)
    } else {
        joined = ([words[0].lowercased()] + words.dropFirst().map { $0.capitalized }).joined()
    }
    return String(key[..<first]) + joined + String(key[key.index(after: last)...])
}

/// Marks `[String: Value]`, whose keys a key strategy leaves alone (as Foundation does).
protocol StringKeyedDictionary {
    static var elementType: any Decodable.Type { get }
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
    static var elementType: any Decodable.Type { Value.self }
}
