import CourierPrimitives
import Foundation

/// The drift between the document a client is written against and the document its provider
/// publishes: what the client relies on that the provider no longer promises (`breaking`), and
/// what the provider offers besides without harm to the client (`harmless`).
///
/// Operations are matched by method and path template shape (`/users/{id}` matches
/// `/users/{userId}`); references are followed in both documents. Rule ids follow oasdiff's
/// catalogue of changes where one fits.
///
/// ```swift
/// let ours = try OpenAPIDocument.load(from: URL(fileURLWithPath: "client.json"))
/// let theirs = try OpenAPIDocument.load(from: URL(fileURLWithPath: "provider.yaml"))
/// let diff = try ContractDiff.compare(client: ours, provider: theirs)
/// let gone = diff.breaking.filter { $0.rule == "api-path-removed-without-deprecation" }
/// ```
public struct ContractDiff: Sendable, Hashable {
    /// One difference.
    public struct Change: Sendable, Hashable {
        /// The rule's id, such as `response-property-became-optional`.
        public var rule: String
        /// The operation, as `METHOD /path/{template}` in the client's document.
        public var operation: String
        /// What changed, in one sentence.
        public var message: String
        /// The JSON pointer of the client document's side, if it has one.
        public var clientPointer: String?
        /// The JSON pointer of the provider document's side, if it has one.
        public var providerPointer: String?

        /// Creates a change.
        public init(
            rule: String, operation: String, message: String, clientPointer: String?, providerPointer: String?
        ) {
            self.rule = rule
            self.operation = operation
            self.message = message
            self.clientPointer = clientPointer
            self.providerPointer = providerPointer
        }
    }

    /// What the client relies on that the provider does not promise.
    public var breaking: [Change]
    /// What is new or looser on the provider's side and does not affect the client.
    public var harmless: [Change]

    /// Whether a change breaks the client.
    public var isBreaking: Bool { !breaking.isEmpty }

    /// Compares a client's document with its provider's.
    /// - Parameters:
    ///   - client: the document the client is written against (for a declared API, the one its
    ///     operations write).
    ///   - provider: the provider's document.
    /// - Returns: the breaking and the harmless differences.
    /// - Throws: `OpenAPIDocumentError` when a reference leads nowhere (a loaded document has none).
    public static func compare(client: OpenAPIDocument, provider: OpenAPIDocument)
        throws(OpenAPIDocumentError)
        -> ContractDiff
    {
        var comparison = DocumentComparison(client: client, provider: provider)
        try comparison.run()
        return ContractDiff(breaking: comparison.breaking, harmless: comparison.harmless)
    }

    /// The report as text: the breaking changes, then the harmless ones, each with its pointers.
    public var text: String {
        var lines: [String] = []
        for (title, changes) in [("breaking", breaking), ("harmless", harmless)] where !changes.isEmpty {
            lines.append("\(title) (\(changes.count)):")
            for change in changes {
                lines.append("  \(change.operation) [\(change.rule)] \(change.message)")
                if let pointer = change.clientPointer { lines.append("      client:   \(pointer)") }
                if let pointer = change.providerPointer { lines.append("      provider: \(pointer)") }
            }
        }
        if lines.isEmpty { lines.append("no difference") }
        return lines.joined(separator: "\n")
    }

    /// The report as JSON: `{"breaking": [...], "harmless": [...]}`, each change with `rule`,
    /// `operation`, `message`, and `client` and `provider` pointers when it has them.
    public var json: JSONValue {
        func entry(_ change: Change) -> JSONValue {
            var members: [String: JSONValue] = [
                "rule": .string(change.rule), "operation": .string(change.operation),
                "message": .string(change.message),
            ]
            if let pointer = change.clientPointer { members["client"] = .string(pointer) }
            if let pointer = change.providerPointer { members["provider"] = .string(pointer) }
            return .object(members)
        }
        return .object(["breaking": .array(breaking.map(entry)), "harmless": .array(harmless.map(entry))])
    }
}
