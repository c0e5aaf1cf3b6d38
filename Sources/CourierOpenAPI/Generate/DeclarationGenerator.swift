import CourierPrimitives

/// Swift declarations written from an OpenAPI document: an `API` enum per tag with one static
/// function per operation, the `Codable` models of its schemas, and a namespace that writes the
/// document again.
///
/// What the declarations cannot say (a cookie parameter, `minItems`, a response header…) is
/// listed in `undeclared` with its JSON pointer, never dropped silently.
///
/// ```swift
/// let document = try OpenAPIDocument.load(from: URL(fileURLWithPath: "openapi.yaml"))
/// let generated = try DeclarationGenerator.generate(document)
/// for (name, source) in generated.files {
///     try Data(source.utf8).write(to: URL(fileURLWithPath: name))
/// }
/// let unsupported = generated.undeclared.filter { !$0.isDocumentation }
/// ```
public enum DeclarationGenerator {
    /// Who may use the generated declarations.
    public enum Access: String, Sendable, Hashable, CaseIterable {
        /// The declaring module alone: for an app target.
        case `internal`
        /// Any module that imports it: for a library, with public initializers for the models.
        case `public`
    }

    /// Generates the declarations of a loaded document.
    /// - Parameters:
    ///   - document: the document.
    ///   - access: who may use the declarations. Default: the declaring module alone.
    /// - Returns: the Swift files by name, and what could not be declared.
    /// - Throws: `OpenAPIDocumentError` when a reference in it leads nowhere, or an operation lacks
    ///   what every operation needs (`responses`).
    public static func generate(_ document: OpenAPIDocument, access: Access = .internal)
        throws(OpenAPIDocumentError) -> GeneratedDeclarations
    {
        let generator = SwiftDeclarationWriter(
            document: ReferencedDocument(document: document), access: access)
        return try generator.write()
    }
}

/// What `DeclarationGenerator.generate` wrote.
public struct GeneratedDeclarations: Sendable, Hashable {
    /// Swift source files by file name, such as `Models.swift` and `PetsAPI.swift`.
    public var files: [String: String]
    /// What the document says that the declarations cannot, in document order.
    public var undeclared: [UndeclaredFeature]
}

/// A part of a document that the generated declarations do not carry.
public struct UndeclaredFeature: Sendable, Hashable, CustomStringConvertible {
    /// Its JSON pointer.
    public var pointer: String
    /// Why it is not declared, and what was declared instead, if anything.
    public var reason: String
    /// Whether it is documentation only (a description, an example, a title), which changes no
    /// request or response.
    public var isDocumentation: Bool

    /// Creates a finding.
    public init(pointer: String, reason: String, isDocumentation: Bool = false) {
        self.pointer = pointer
        self.reason = reason
        self.isDocumentation = isDocumentation
    }

    public var description: String { "\(pointer): \(reason)" }
}
