import CourierPrimitives
import CourierSchema
import Foundation

extension Schema {
    /// The schema as the API's OpenAPI document writes it (JSON Schema 2020-12), with the root its
    /// named models' `$ref`s resolve against: what the one schema engine checks and exemplifies.
    /// - Parameter undeclared: whether an object member its schema does not list is refused
    ///   (`additionalProperties: false` on every object with properties).
    package func jsonSchema(undeclared: Bool = false) -> (schema: JSONValue, root: SchemaRoot) {
        var components = OpenAPIWriter.Components()
        var schema = OpenAPIWriter.json(self, &components)
        var models = components.schemas
        if undeclared {
            schema = Self.closed(schema)
            models = models.mapValues(Self.closed)
        }
        return (schema, SchemaRoot(.object(["components": .object(["schemas": .object(models)])])))
    }

    /// Every way `value` breaks the schema, in document order (at most `limit`).
    /// - Parameters:
    ///   - value: the JSON value.
    ///   - path: where the value sits, for messages (`response` gives `response.items[2].id`).
    ///   - limit: the most violations to collect.
    ///   - undeclared: whether a member of an object that its schema does not list is a violation
    ///     (by default unknown members are allowed and ignored).
    package func violations(
        of value: JSONValue, at path: String, limit: Int = SchemaValidator.maxViolations,
        undeclared: Bool = false
    ) -> [SchemaViolation] {
        let (schema, root) = jsonSchema(undeclared: undeclared)
        return SchemaValidator(root: root).validate(value, against: schema, path: path, limit: limit)
    }

    /// The first way `value` breaks the schema, or `nil` when it conforms.
    /// - Parameters:
    ///   - value: the JSON value.
    ///   - path: where the value sits, for messages (`body` gives `body.items[2].id`).
    package func violation(of value: JSONValue, at path: String) -> SchemaViolation? {
        violations(of: value, at: path, limit: 1).first
    }

    /// Types and checks a path, query or header value, which arrive as text (`7` is an integer).
    /// - Returns: what is wrong with it, or `nil`.
    package func violation(ofText text: String) -> String? {
        let (schema, root) = jsonSchema()
        let validator = SchemaValidator(root: root)
        let value = validator.value(ofText: text, for: schema)
        return validator.validate(value, against: schema, path: "", limit: 1).first?.message
    }

    /// `schema` with `additionalProperties: false` on every object that lists its properties.
    private static func closed(_ schema: JSONValue) -> JSONValue {
        switch schema {
        case .object(var members):
            for (key, member) in members { members[key] = closed(member) }
            if members["type"] == .string("object"), members["properties"] != nil,
                members["additionalProperties"] == nil
            {
                members["additionalProperties"] = .bool(false)
            }
            return .object(members)
        case .array(let items):
            return .array(items.map(closed))
        default:
            return schema
        }
    }
}

extension Schema.StringRules {
    /// What is wrong with `text` by these rules, or `nil`.
    package func violation(of text: String) -> String? { Schema.string(self).violation(ofText: text) }
}
