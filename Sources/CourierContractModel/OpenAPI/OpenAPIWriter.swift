import Courier
import CourierPrimitives
import Foundation

/// Writes operations as an OpenAPI 3.1 document, for any API.
public enum OpenAPIWriter {
    /// The document for `operations`.
    ///
    /// Every named model the operations use (a `Schema.model`, as `Schema.of(_:)` derives
    /// from a `Codable` type) is written once under `components/schemas` and referred to
    /// everywhere else.
    ///
    /// - Parameters:
    ///   - title: the API's title.
    ///   - version: the API's version.
    ///   - description: a paragraph on the API.
    ///   - operations: the operations, such as `MyAPI.operations`.
    ///   - serverURL: the `servers` entry, if any.
    public static func make(
        title: String, version: String = "1.0.0", description: String? = nil, operations: [APIOperation],
        serverURL: URL? = nil
    ) -> JSONValue {
        var components = Components()
        var paths: [String: JSONValue] = [:]
        for operation in operations {
            var item: [String: JSONValue] = [:]
            if case .object(let existing) = paths[operation.path] { item = existing }
            item[operation.method.rawValue.lowercased()] = self.operation(operation, &components)
            paths[operation.path] = .object(item)
        }
        var info: [String: JSONValue] = ["title": .string(title), "version": .string(version)]
        if let description { info["description"] = .string(description) }
        var componentMembers: [String: JSONValue] = ["schemas": .object(components.schemas)]
        var schemes: [String: JSONValue] = [:]
        for scheme in operations.flatMap(\.security) { schemes[scheme.name] = scheme.definition }
        if !schemes.isEmpty { componentMembers["securitySchemes"] = .object(schemes) }
        var document: [String: JSONValue] = [
            "openapi": .string("3.1.0"),
            "info": .object(info),
            "paths": .object(paths),
            "components": .object(componentMembers),
        ]
        if let serverURL {
            document["servers"] = .array([.object(["url": .string(serverURL.absoluteString)])])
        }
        return .object(document)
    }

    /// The document as pretty-printed JSON.
    /// - Throws: `EncodingError` (not expected: every value is finite).
    public static func data(
        title: String, version: String = "1.0.0", description: String? = nil, operations: [APIOperation],
        serverURL: URL? = nil
    ) throws -> Data {
        try make(
            title: title, version: version, description: description, operations: operations,
            serverURL: serverURL
        ).prettyData()
    }

    /// The named models met so far, as OpenAPI schemas.
    struct Components {
        var schemas: [String: JSONValue] = [:]
    }

    static func operation(_ operation: APIOperation, _ components: inout Components) -> JSONValue {
        var result: [String: JSONValue] = [
            "operationId": .string(operation.id),
            "summary": .string(operation.summary),
            "tags": .array([.string(operation.group)]),
        ]
        if operation.requiresAuth {
            result["security"] = .array(operation.security.map { .object([$0.name: .array([])]) })
        }
        if !operation.parameters.isEmpty {
            result["parameters"] = .array(
                operation.parameters.map { parameter in
                    var entry: [String: JSONValue] = [
                        "name": .string(parameter.name),
                        "in": .string(parameter.location.rawValue),
                        "required": .bool(parameter.required),
                        "description": .string(parameter.summary),
                    ]
                    let schema = json(parameter.schema, &components)
                    if let type = parameter.contentType {
                        entry["content"] = .object([type: .object(["schema": schema])])
                    } else {
                        entry["schema"] = schema
                    }
                    if let example = parameter.example { entry["example"] = .string(example) }
                    if let value = parameter.defaultValue, case .object(var schema) = entry["schema"] {
                        schema["default"] = Int64(value).map(JSONValue.int) ?? .string(value)
                        entry["schema"] = .object(schema)
                    }
                    return .object(entry)
                })
        }
        if let body = operation.body {
            result["requestBody"] = .object(["required": .bool(true), "content": content(body, &components)])
        }
        var responses: [String: JSONValue] = [:]
        for response in operation.responses {
            var entry: [String: JSONValue] = ["description": .string(response.summary)]
            if let schema = response.schema {
                // Bytes that JSON carries as base64 are the body itself in any other media type.
                let raw =
                    !isJSON(response.contentType) && schema == .string(Schema.StringRules(format: "byte"))
                let written: JSONValue =
                    raw
                    ? .object(["type": .string("string"), "format": .string("binary")])
                    : json(schema, &components)
                entry["content"] = .object([response.contentType: .object(["schema": written])])
            }
            responses[String(response.status)] = .object(entry)
        }
        // An operation that states no response has none written (OpenAPI 3.1 allows it).
        if !responses.isEmpty { result["responses"] = .object(responses) }
        return .object(result)
    }

    /// A bound as JSON: a whole number as an integer (`0`, not `0.0`).
    private static func number(_ value: Double) -> JSONValue {
        if value.rounded() == value, abs(value) < 9.0e15 { return .int(Int64(value)) }
        return .double(value)
    }

    /// Whether a media type is JSON: `application/json` or a `+json` type such as
    /// `application/problem+json`.
    static func isJSON(_ mediaType: String) -> Bool {
        let bare = APIOperation.mediaType(mediaType)
        return bare == "application/json" || bare.hasSuffix("+json")
    }

    static func content(_ body: APIOperation.Body, _ components: inout Components) -> JSONValue {
        switch body {
        case .json(let schema):
            return .object(["application/json": .object(["schema": json(schema, &components)])])
        case .binary(let types, let base64):
            var content: [String: JSONValue] = [:]
            for type in types {
                var schema: [String: JSONValue] = [
                    "type": .string("string"), "contentMediaType": .string(type),
                ]
                if base64 { schema["contentEncoding"] = .string("base64") }
                content[type] = .object(["schema": .object(schema)])
            }
            return .object(content)
        case .form(let schema):
            return .object([
                "application/x-www-form-urlencoded": .object(["schema": json(schema, &components)])
            ])
        case .multipart(let schema, let fileTypes):
            var form: [String: JSONValue] = ["schema": json(schema, &components)]
            let encodings = fileTypes.filter { !$0.value.isEmpty }.mapValues { types in
                JSONValue.object(["contentType": .string(types.joined(separator: ", "))])
            }
            if !encodings.isEmpty { form["encoding"] = .object(encodings) }
            return .object(["multipart/form-data": .object(form)])
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
    /// `schema` as an OpenAPI (JSON Schema 2020-12) schema, with named models written into
    /// `components` once and referred to.
    static func json(_ schema: Schema, _ components: inout Components) -> JSONValue {
        switch schema {
        case .model(let name, let definition):
            if components.schemas[name] == nil {
                components.schemas[name] = .object([:])  // a placeholder while a recursive model is written
                components.schemas[name] = json(definition, &components)
            }
            return .object(["$ref": .string("#/components/schemas/\(name)")])
        case .ref(let name):
            return .object(["$ref": .string("#/components/schemas/\(name)")])
        case .any:
            return .object([:])
        case .boolean:
            return .object(["type": .string("boolean")])
        case .number(let minimum, let maximum):
            var result: [String: JSONValue] = ["type": .string("number")]
            if let minimum { result["minimum"] = number(minimum) }
            if let maximum { result["maximum"] = number(maximum) }
            return .object(result)
        case .anyOf(let branches):
            return .object(["anyOf": .array(branches.map { json($0, &components) })])
        case .oneOf(let branches):
            return .object(["oneOf": .array(branches.map { json($0, &components) })])
        case .enumeration(let values):
            return .object(["type": .string("string"), "enum": .array(values.map(JSONValue.string))])
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
            if let pattern = rules.documentPattern { result["pattern"] = .string(pattern) }
            return .object(result)
        case .array(let item):
            return .object(["type": .string("array"), "items": json(item, &components)])
        case .map(let member):
            return .object(["type": .string("object"), "additionalProperties": json(member, &components)])
        case .object(let properties, let required):
            var members: [String: JSONValue] = [:]
            for property in properties {
                let member = json(property.schema, &components)
                // An optional property decodes from a missing key or from null (`decodeIfPresent`).
                members[property.name] =
                    required.contains(property.name)
                    ? member : .object(["anyOf": .array([member, .object(["type": .string("null")])])])
            }
            var result: [String: JSONValue] = ["type": .string("object"), "properties": .object(members)]
            if !required.isEmpty { result["required"] = .array(required.map(JSONValue.string)) }
            return .object(result)
        }
    }
}
