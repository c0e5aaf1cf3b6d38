import CourierPrimitives
import CourierSchema
import Foundation

extension OpenAPIDocument {
    /// What the document's schemas resolve against (its files too), read in the document's dialect.
    package var schemaRoot: SchemaRoot {
        SchemaRoot(dialect: version == .v3_0 ? .openAPI30 : .jsonSchema2020) { [self] in target(of: $0) }
    }
}

extension SchemaValidator {
    /// Creates a validator for the schemas of `document`.
    /// - Parameter document: the document the schemas come from.
    public init(document: OpenAPIDocument) {
        self.init(root: document.schemaRoot)
    }
}

extension SchemaValueGenerator {
    /// Creates a generator for the schemas of `document`.
    /// - Parameters:
    ///   - document: the document the schemas come from.
    ///   - prefersExamples: use a schema's valid `example`/`examples`/`default` before making one up.
    public init(document: OpenAPIDocument, prefersExamples: Bool = true) {
        self.init(root: document.schemaRoot, prefersExamples: prefersExamples)
    }
}
