import CourierPrimitives
import Foundation

/// A JSON pointer (RFC 6901): the path to one value inside a JSON document, such as
/// `/paths/~1pets~1{petId}/get`.
///
/// ```swift
/// let pointer = try JSONPointer(parsing: "/paths/~1pets/get")
/// let tokens = pointer.tokens  // ["paths", "/pets", "get"]
/// let text = pointer.appending("responses").description  // "/paths/~1pets/get/responses"
/// ```
public struct JSONPointer: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The reference tokens, unescaped.
    public var tokens: [String]

    /// The pointer to the whole document.
    public static let root = JSONPointer(tokens: [])

    /// Creates a pointer from unescaped tokens.
    /// - Parameter tokens: the reference tokens.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses a pointer in its JSON string form: empty, or `/`-separated tokens with `~0` for `~` and
    /// `~1` for `/`.
    /// - Parameter text: the pointer text.
    /// - Throws: ``JSONPointerError`` when it does not start with `/` or has a `~` not followed by 0 or 1.
    public init(parsing text: String) throws(JSONPointerError) {
        guard !text.isEmpty else {
            self.tokens = []
            return
        }
        guard text.hasPrefix("/") else {
            throw JSONPointerError(text: text, reason: "does not start with '/'")
        }
        var tokens: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var iterator = raw.makeIterator()
            while let character = iterator.next() {
                guard character == "~" else {
                    token.append(character)
                    continue
                }
                switch iterator.next() {
                case "0": token.append("~")
                case "1": token.append("/")
                default: throw JSONPointerError(text: text, reason: "'~' must be followed by 0 or 1")
                }
            }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    /// Parses a pointer written as a URI fragment (the part of a `$ref` after `#`), percent-decoding it
    /// first.
    /// - Parameter fragment: the fragment, without the `#`.
    /// - Throws: ``JSONPointerError`` for a malformed escape or pointer.
    public init(fragment: String) throws(JSONPointerError) {
        guard let decoded = fragment.removingPercentEncoding else {
            throw JSONPointerError(text: fragment, reason: "malformed percent-encoding")
        }
        try self.init(parsing: decoded)
    }

    /// The pointer's JSON string form, such as `/paths/~1pets`.
    public var description: String {
        tokens.map { "/" + Self.escape($0) }.joined()
    }

    /// The pointer as a URI fragment with its `#`, percent-encoded where a URI needs it: `#/paths/~1pets`.
    public var uriFragment: String {
        "#"
            + (description.addingPercentEncoding(withAllowedCharacters: Self.fragmentCharacters)
                ?? description)
    }

    /// This pointer with one more token.
    /// - Parameter token: the unescaped token.
    /// - Returns: the longer pointer.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    /// This pointer with an array index appended.
    /// - Parameter index: the index.
    /// - Returns: the longer pointer.
    public func appending(_ index: Int) -> JSONPointer {
        appending(String(index))
    }

    /// The pointer one level up; the root's parent is the root.
    public var parent: JSONPointer {
        JSONPointer(tokens: Array(tokens.dropLast()))
    }

    /// The value this pointer names inside `document`.
    /// - Parameter document: the document.
    /// - Returns: the value, or nil when the path does not exist.
    public func resolve(in document: JSONValue) -> JSONValue? {
        var current = document
        for token in tokens {
            switch current {
            case .object(let members):
                guard let next = members[token] else { return nil }
                current = next
            case .array(let items):
                guard token == "0" || !token.hasPrefix("0"), let index = Int(token),
                    items.indices.contains(index)
                else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }

    /// Orders pointers token by token, so that problems list in document order of nesting.
    public static func < (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        lhs.tokens.lexicographicallyPrecedes(rhs.tokens)
    }

    private static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    private static let fragmentCharacters: CharacterSet = {
        var allowed = CharacterSet.urlFragmentAllowed
        allowed.remove(charactersIn: "%{}")
        return allowed
    }()
}

/// A JSON pointer that could not be parsed.
public struct JSONPointerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text given.
    public var text: String
    /// What is wrong with it.
    public var reason: String

    /// `malformed JSON pointer '…': reason`.
    public var description: String { "malformed JSON pointer '\(text)': \(reason)" }
}
