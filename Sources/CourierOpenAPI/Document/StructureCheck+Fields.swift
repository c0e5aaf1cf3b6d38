import CourierPrimitives

/// The fixed fields of each OpenAPI object: a field an object does not have is refused (as the
/// specification's own JSON Schemas refuse it), `x-` extensions aside.
extension StructureCheck {
    /// The OpenAPI objects whose fields are checked.
    enum ObjectKind: String {
        case document, info, server, serverVariable, pathItem, operation, parameter, requestBody
        case mediaType, encoding, response, header, components, securityScheme, tag, reference
        /// A callback: its keys are runtime expressions, any of them.
        case callback
        case link, contact, license, oauthFlows, oauthFlow

        /// The fields the kind has in `version`.
        func fields(_ version: OpenAPIDocument.Version) -> Set<String> {
            let v31 = version == .v3_1
            switch self {
            case .document:
                let shared: Set = [
                    "openapi", "info", "servers", "paths", "components", "security", "tags", "externalDocs",
                ]
                return v31 ? shared.union(["webhooks", "jsonSchemaDialect"]) : shared
            case .info:
                let shared: Set = ["title", "description", "termsOfService", "contact", "license", "version"]
                return v31 ? shared.union(["summary"]) : shared
            case .server: return ["url", "description", "variables"]
            case .serverVariable: return ["enum", "default", "description"]
            case .pathItem:
                return Set(OpenAPIDocument.methods).union([
                    "$ref", "summary", "description", "servers", "parameters",
                ])
            case .operation:
                return [
                    "tags", "summary", "description", "externalDocs", "operationId", "parameters",
                    "requestBody", "responses", "callbacks", "deprecated", "security", "servers",
                ]
            case .parameter: return Self.header.fields(version).union(["name", "in"])
            case .header:
                return [
                    "description", "required", "deprecated", "allowEmptyValue", "style", "explode",
                    "allowReserved", "schema", "example", "examples", "content",
                ]
            case .requestBody: return ["description", "content", "required"]
            case .mediaType: return ["schema", "example", "examples", "encoding"]
            case .encoding: return ["contentType", "headers", "style", "explode", "allowReserved"]
            case .response: return ["description", "headers", "content", "links"]
            case .components:
                let shared: Set = [
                    "schemas", "responses", "parameters", "examples", "requestBodies", "headers",
                    "securitySchemes", "links", "callbacks",
                ]
                return v31 ? shared.union(["pathItems"]) : shared
            case .securityScheme:
                return [
                    "type", "description", "name", "in", "scheme", "bearerFormat", "flows",
                    "openIdConnectUrl",
                ]
            case .tag: return ["name", "description", "externalDocs"]
            case .reference: return v31 ? ["$ref", "summary", "description"] : []
            case .callback: return []
            case .link:
                return ["operationRef", "operationId", "parameters", "requestBody", "description", "server"]
            case .contact: return ["name", "url", "email"]
            case .license: return v31 ? ["name", "identifier", "url"] : ["name", "url"]
            case .oauthFlows: return ["implicit", "password", "clientCredentials", "authorizationCode"]
            case .oauthFlow: return ["authorizationUrl", "tokenUrl", "refreshUrl", "scopes"]
            }
        }

        /// The fields that hold a boolean.
        var booleans: [String] {
            switch self {
            case .parameter, .header:
                ["required", "deprecated", "allowEmptyValue", "explode", "allowReserved"]
            case .operation: ["deprecated"]
            case .requestBody: ["required"]
            case .encoding: ["explode", "allowReserved"]
            default: []
            }
        }

        /// The fields that hold a string.
        var strings: [String] {
            switch self {
            case .contact: ["name", "url", "email"]
            case .license: ["name", "identifier", "url"]
            case .oauthFlow: ["authorizationUrl", "tokenUrl", "refreshUrl"]
            case .link: ["operationRef", "operationId", "description"]
            default: []
            }
        }

        /// The name used in messages: `path item`, `server variable`.
        var phrase: String {
            rawValue.reduce(into: "") { text, character in
                text += character.isUppercase ? " " + character.lowercased() : String(character)
            }
        }
    }

    /// Refuses the fields `value` does not have as a `kind`, and booleans of another type.
    /// A Reference Object in 3.0 may carry anything beside `$ref` (it is ignored); in 3.1 a summary and a
    /// description.
    mutating func checkFields(_ value: JSONValue, as kind: ObjectKind, at pointer: JSONPointer) {
        guard case .object(let members) = value, kind != .callback || members["$ref"] != nil else { return }
        let allowed: Set<String>
        if members["$ref"] != nil, kind != .pathItem {
            if document.version == .v3_0 { return }
            allowed = ObjectKind.reference.fields(document.version)
        } else {
            allowed = kind.fields(document.version)
        }
        for key in members.keys.sorted() where !allowed.contains(key) && !key.hasPrefix("x-") {
            let shown = members["$ref"] != nil && kind != .pathItem ? "a reference" : "a \(kind.phrase)"
            add(pointer.appending(key), "'\(key)' is not a field of \(shown)")
        }
        guard members["$ref"] == nil || kind == .pathItem else { return }
        for key in kind.booleans {
            if let field = members[key], field.boolValue == nil {
                add(pointer.appending(key), "must be a boolean")
            }
        }
        for key in kind.strings {
            if let field = members[key], field.stringValue == nil {
                add(pointer.appending(key), "must be a string")
            }
        }
        if [.parameter, .header, .mediaType].contains(kind), members["example"] != nil,
            members["examples"] != nil
        {
            add(pointer.appending("examples"), "example and examples exclude each other")
        }
    }
}
