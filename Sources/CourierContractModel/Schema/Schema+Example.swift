import CourierPrimitives
import CourierSchema
import Foundation

extension Schema {
    /// A value that this schema accepts, for examples and for a stub server that has nothing better to
    /// answer with: made by the same generator as an OpenAPI document's examples, from the schema as the
    /// API's document writes it, so bounds, formats, prefixes and allowed characters hold. The same
    /// schema gives the same value every time; `null` when no value can be made.
    public func example() -> JSONValue {
        let (schema, root) = jsonSchema()
        do {
            return try SchemaValueGenerator(root: root, prefersExamples: false).value(for: schema, seed: 0)
        } catch {
            return .null
        }
    }
}
