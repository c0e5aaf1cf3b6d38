import CourierPrimitives
import Foundation

/// What a schema's `$ref`s resolve against, and the dialect its keywords are read in: an OpenAPI
/// document, or the components a declared API's models are written into.
package struct SchemaRoot: Sendable {
    /// How a schema's keywords are read.
    package enum Dialect: Sendable, Hashable {
        /// OpenAPI 3.0's dialect: `nullable`, boolean exclusive bounds, siblings of `$ref` ignored.
        case openAPI30
        /// JSON Schema 2020-12, as OpenAPI 3.1 uses it.
        case jsonSchema2020
    }

    /// The dialect.
    package let dialect: Dialect
    private let lookup: @Sendable (String) -> JSONValue?

    /// The most `$ref`s followed one after another before `resolve(_:)` gives up on a cycle.
    package static let maxReferenceChain = 64

    /// A root whose references another reader resolves (an OpenAPI document with its other files).
    package init(dialect: Dialect, lookup: @escaping @Sendable (String) -> JSONValue?) {
        self.dialect = dialect
        self.lookup = lookup
    }

    /// A root whose references are JSON pointers into `document` (`#/components/schemas/Note`).
    package init(_ document: JSONValue, dialect: Dialect = .jsonSchema2020) {
        self.init(dialect: dialect) { reference in Self.pointer(reference, in: document) }
    }

    /// The value `reference` points at, or nil when it points nowhere.
    package func target(of reference: String) -> JSONValue? { lookup(reference) }

    /// `value` with its `$ref`s followed until a value that is not a reference.
    package func resolve(_ value: JSONValue) -> JSONValue {
        var current = value
        for _ in 0..<Self.maxReferenceChain {
            guard let reference = current["$ref"]?.stringValue, let next = target(of: reference) else {
                return current
            }
            current = next
        }
        return current
    }

    /// The component a local reference names (`Pet` for `#/components/schemas/Pet`), else nil.
    static func componentName(_ reference: String) -> String? {
        guard let tokens = tokens(reference), tokens.count == 3, tokens[0] == "components" else { return nil }
        return tokens[2]
    }

    /// The value a local reference (`#/a/b`) points at in `document`.
    static func pointer(_ reference: String, in document: JSONValue) -> JSONValue? {
        guard let tokens = tokens(reference) else { return nil }
        var current = document
        for token in tokens {
            switch current {
            case .object(let members):
                guard let next = members[token] else { return nil }
                current = next
            case .array(let items):
                guard let index = Int(token), items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }

    /// A local reference's JSON pointer tokens, unescaped; nil for a reference into another file.
    private static func tokens(_ reference: String) -> [String]? {
        guard reference.hasPrefix("#") else { return nil }
        let fragment = String(reference.dropFirst()).removingPercentEncoding ?? String(reference.dropFirst())
        guard !fragment.isEmpty else { return [] }
        guard fragment.hasPrefix("/") else { return nil }
        return fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }
}
