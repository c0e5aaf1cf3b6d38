import Foundation

/// Writes the contract as an OpenAPI 3.1 document.
public enum OpenAPIDocument {
    /// The document as a JSON value.
    ///
    /// - Parameter serverURL: the server to list under `servers`, if any.
    public static func make(serverURL: URL? = nil) -> JSONValue {
        var paths: [String: JSONValue] = [:]
        for operation in Contract.operations {
            var item: [String: JSONValue] = [:]
            if case .object(let existing) = paths[operation.path] { item = existing }
            item[operation.method.rawValue.lowercased()] = self.operation(operation)
            paths[operation.path] = .object(item)
        }
        var schemas: [String: JSONValue] = [:]
        for (name, schema) in Contract.schemas { schemas[name] = json(schema) }
        var document: [String: JSONValue] = [
            "openapi": .string("3.1.0"),
            "info": .object([
                "title": .string("Courier social API"),
                "version": .string("1.0.0"),
                "description": .string(
                    "The social backend the Endpoints enums call and the Courier mock server implements."),
            ]),
            "paths": .object(paths),
            "components": .object([
                "schemas": .object(schemas),
                "securitySchemes": .object([
                    "bearer": .object(["type": .string("http"), "scheme": .string("bearer")])
                ]),
            ]),
        ]
        if let serverURL {
            document["servers"] = .array([.object(["url": .string(serverURL.absoluteString)])])
        }
        return .object(document)
    }

    /// The document as pretty-printed JSON text.
    /// - Throws: `EncodingError` (not expected: the contract holds no non-finite numbers).
    public static func data(serverURL: URL? = nil) throws -> Data {
        try make(serverURL: serverURL).prettyData()
    }

    static func operation(_ operation: APIOperation) -> JSONValue {
        var result: [String: JSONValue] = [
            "operationId": .string(operation.id),
            "summary": .string(operation.summary),
            "tags": .array([.string(operation.group)]),
        ]
        if operation.requiresAuth {
            result["security"] = .array([.object(["bearer": .array([])])])
        }
        if !operation.parameters.isEmpty {
            result["parameters"] = .array(
                operation.parameters.map { parameter in
                    var entry: [String: JSONValue] = [
                        "name": .string(parameter.name),
                        "in": .string(parameter.location.rawValue),
                        "required": .bool(parameter.required),
                        "description": .string(parameter.summary),
                        "schema": json(parameter.schema),
                    ]
                    if let example = parameter.example { entry["example"] = .string(example) }
                    return .object(entry)
                })
        }
        if let body = operation.body {
            result["requestBody"] = .object(["required": .bool(true), "content": content(body)])
        }
        var responses: [String: JSONValue] = [:]
        for response in operation.responses {
            var entry: [String: JSONValue] = ["description": .string(response.summary)]
            if let schema = response.schema {
                entry["content"] = .object(["application/json": .object(["schema": json(schema)])])
            }
            responses[String(response.status)] = .object(entry)
        }
        result["responses"] = .object(responses)
        return .object(result)
    }

    static func content(_ body: APIOperation.Body) -> JSONValue {
        switch body {
        case .json(let schema):
            return .object(["application/json": .object(["schema": json(schema)])])
        case .binary(let types):
            var content: [String: JSONValue] = [:]
            for type in types {
                content[type] = .object([
                    "schema": .object(["type": .string("string"), "contentMediaType": .string(type)])
                ])
            }
            return .object(content)
        case .multipartFile(let field, let types):
            return .object([
                "multipart/form-data": .object([
                    "schema": .object([
                        "type": .string("object"),
                        "properties": .object([
                            field: .object(["type": .string("string"), "format": .string("binary")])
                        ]),
                        "required": .array([.string(field)]),
                    ]),
                    "encoding": .object([
                        field: .object(["contentType": .string(types.joined(separator: ", "))])
                    ]),
                ])
            ])
        }
    }

    /// A schema as JSON Schema (2020-12, as OpenAPI 3.1 uses).
    public static func json(_ schema: Schema) -> JSONValue {
        switch schema {
        case .ref(let name):
            return .object(["$ref": .string("#/components/schemas/\(name)")])
        case .boolean:
            return .object(["type": .string("boolean")])
        case .integer(let minimum, let maximum):
            var result: [String: JSONValue] = ["type": .string("integer")]
            if let minimum { result["minimum"] = .int(Int64(minimum)) }
            if let maximum { result["maximum"] = .int(Int64(maximum)) }
            return .object(result)
        case .string(let rules):
            var result: [String: JSONValue] = ["type": .string("string")]
            if let minLength = rules.minLength, minLength > 0 { result["minLength"] = .int(Int64(minLength)) }
            if let maxLength = rules.maxLength { result["maxLength"] = .int(Int64(maxLength)) }
            if let format = rules.format { result["format"] = .string(format) }
            if let pattern = rules.pattern { result["pattern"] = .string(pattern) }
            return .object(result)
        case .array(let item):
            return .object(["type": .string("array"), "items": json(item)])
        case .object(let properties, let required):
            var members: [String: JSONValue] = [:]
            for property in properties { members[property.name] = json(property.schema) }
            var result: [String: JSONValue] = ["type": .string("object"), "properties": .object(members)]
            if !required.isEmpty { result["required"] = .array(required.map(JSONValue.string)) }
            return .object(result)
        }
    }
}
