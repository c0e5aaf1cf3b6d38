import CourierPrimitives
import Foundation

/// One way a value breaks a schema: where in the value, and which rule.
public struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// Where in the value, as a JSON path: `$`, `$.pets[0].name`, `$['odd key']`.
    public var path: String
    /// The schema keyword broken: `type`, `required`, `maxLength`, `format`, `oneOf`…
    public var rule: String
    /// What is wrong, for a person.
    public var message: String

    /// Creates a violation.
    /// - Parameters:
    ///   - path: the JSON path of the value at fault.
    ///   - rule: the keyword broken.
    ///   - message: what is wrong.
    public init(path: String, rule: String, message: String) {
        self.path = path
        self.rule = rule
        self.message = message
    }

    /// `path: message (rule)`.
    public var description: String { "\(path): \(message) (\(rule))" }
}

/// JSON paths for violations; a path that starts empty names a member bare (`name`, not `.name`).
enum JSONPath {
    static func member(_ path: String, _ name: String) -> String {
        let plain =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "_" }
            && !(name.unicodeScalars.first.map { CharacterSet.decimalDigits.contains($0) } ?? false)
        if plain { return path.isEmpty ? name : path + "." + name }
        return path + "['" + name.replacingOccurrences(of: "'", with: "\\'") + "']"
    }

    static func index(_ path: String, _ index: Int) -> String { path + "[\(index)]" }
}
