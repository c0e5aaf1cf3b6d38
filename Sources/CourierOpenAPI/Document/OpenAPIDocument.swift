import CourierPrimitives
import CourierSchema
import Foundation

/// An OpenAPI 3.0 or 3.1 document, read from JSON or YAML, with its `$ref`s checked and its structure
/// validated.
///
/// Every `$ref` of the document and of the files it refers to is rewritten to one canonical form: `#/…`
/// for the document itself, `path/to/file.yaml#/…` (relative to the document's folder) for another
/// file. ``resolve(_:)`` follows them; references are left in place, so recursive schemas stay finite.
///
/// ```swift
/// let document = try OpenAPIDocument.load(from: URL(fileURLWithPath: "openapi.yaml"))
/// for operation in document.operations {
///     let line = "\(operation.method) \(operation.path)"
///     _ = line
/// }
/// ```
public struct OpenAPIDocument: Sendable {
    /// The OpenAPI versions read.
    public enum Version: Sendable, Hashable {
        /// OpenAPI 3.0.x: schemas are OpenAPI's JSON Schema dialect (`nullable`, boolean exclusive bounds).
        case v3_0
        /// OpenAPI 3.1.x: schemas are JSON Schema 2020-12.
        case v3_1
    }

    /// Where the document was read from.
    public let url: URL
    /// The version, from the `openapi` field.
    public let version: Version
    /// The `openapi` field as written, such as `3.0.3`.
    public let versionString: String
    /// The document, `$ref`s in canonical form.
    public let root: JSONValue
    /// The other files the document refers to, by path relative to the document's folder.
    public let files: [String: JSONValue]
    /// What was read although the specification does not allow it, each with its pointer: a YAML
    /// `null` in a schema's type list, read as the type `"null"`.
    public let warnings: [OpenAPIProblem]

    /// Reads, resolves and validates the document at `url`.
    /// - Parameters:
    ///   - url: a JSON or YAML file.
    ///   - allowingReferencesOutsideFolder: whether a `$ref` may name a file outside the document's folder
    ///     (with `../`) or by an absolute path; refused by default.
    /// - Returns: the document.
    /// - Throws: ``OpenAPIDocumentError``: unreadable file, syntax error (with line and column), a `$ref`
    ///   outside the folder or by an absolute path, an unsupported version, or an invalid document with the pointer of each problem.
    public static func load(from url: URL, allowingReferencesOutsideFolder: Bool = false)
        throws(OpenAPIDocumentError) -> OpenAPIDocument
    {
        var loader = DocumentLoader(rootURL: url, allowOutside: allowingReferencesOutsideFolder)
        return try loader.load(rootData: nil)
    }

    /// Reads, resolves and validates a document held in memory.
    /// - Parameters:
    ///   - data: the JSON or YAML text.
    ///   - url: where relative `$ref`s are resolved from (a file in the folder they are relative to).
    /// - Returns: the document.
    /// - Throws: ``OpenAPIDocumentError``, as ``load(from:allowingReferencesOutsideFolder:)`` does.
    public static func parse(_ data: Data, url: URL = URL(fileURLWithPath: "openapi.yaml"))
        throws(OpenAPIDocumentError) -> OpenAPIDocument
    {
        var loader = DocumentLoader(rootURL: url, allowOutside: false)
        return try loader.load(rootData: data)
    }

    init(
        url: URL, version: Version, versionString: String, root: JSONValue, files: [String: JSONValue],
        warnings: [OpenAPIProblem] = []
    ) {
        self.url = url
        self.version = version
        self.versionString = versionString
        self.root = root
        self.files = files
        self.warnings = warnings
    }

    /// The value a canonical `$ref` names.
    /// - Parameter reference: a `$ref` as this document holds it.
    /// - Returns: the value, or nil when it names nothing.
    public func target(of reference: String) -> JSONValue? {
        let (file, fragment) = Self.split(reference)
        guard let document = file.isEmpty ? root : files[file],
            let pointer = try? JSONPointer(fragment: fragment)
        else { return nil }
        return pointer.resolve(in: document)
    }

    /// `value` with its `$ref` followed (through chains of references), or `value` itself when it is not a
    /// reference.
    /// - Parameter value: any part of the document.
    /// - Returns: the value referred to.
    public func resolve(_ value: JSONValue) -> JSONValue {
        schemaRoot.resolve(value)
    }

    /// The most `$ref`s followed in a row; the loader refuses longer chains and cycles.
    static let maxReferenceChain = SchemaRoot.maxReferenceChain

    /// Splits a canonical reference into its file (empty for the document) and its fragment.
    static func split(_ reference: String) -> (file: String, fragment: String) {
        guard let hash = reference.firstIndex(of: "#") else { return (reference, "") }
        return (String(reference[..<hash]), String(reference[reference.index(after: hash)...]))
    }

    /// The component named by a reference to `#/components/<kind>/<name>`, for messages.
    static func componentName(_ reference: String) -> String? {
        let (file, fragment) = split(reference)
        guard file.isEmpty, let pointer = try? JSONPointer(fragment: fragment), pointer.tokens.count == 3,
            pointer.tokens[0] == "components"
        else { return nil }
        return pointer.tokens[2]
    }
}
