import CourierPrimitives
import Foundation

/// The OpenAPI specification's rules that a mock or a generator relies on, checked everywhere and all
/// reported, each with its pointer.
struct StructureCheck {
    let document: OpenAPIDocument
    private var problems: [OpenAPIProblem] = []

    init(document: OpenAPIDocument) { self.document = document }

    private static let parameterStyles: [OpenAPIParameterLocation: Set<String>] = [
        .path: ["simple", "label", "matrix"],
        .query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
        .header: ["simple"],
        .cookie: ["form"],
    ]
    private static let schemaTypes: Set<String> = [
        "null", "boolean", "object", "array", "number", "string", "integer",
    ]

    mutating func run() -> [OpenAPIProblem] {
        let root = document.root
        checkInfo(root["info"])
        switch (document.version, root["paths"]) {
        case (.v3_0, nil):
            add([], "required: paths, an object")
        case (.v3_1, nil) where root["components"] == nil && root["webhooks"] == nil:
            add([], "required: one of paths, components or webhooks")
        case (_, .some(let paths)):
            checkPaths(paths)
        default:
            break
        }
        if let servers = root["servers"] { checkServers(servers, at: JSONPointer(tokens: ["servers"])) }
        checkComponents(root["components"])
        if let security = root["security"] { checkSecurity(security, at: JSONPointer(tokens: ["security"])) }
        return problems.sorted { $0.pointer < $1.pointer }
    }

    private mutating func add(_ tokens: [String], _ message: String) {
        problems.append(OpenAPIProblem(pointer: JSONPointer(tokens: tokens), message: message))
    }

    private mutating func add(_ pointer: JSONPointer, _ message: String) {
        problems.append(OpenAPIProblem(pointer: pointer, message: message))
    }

    private mutating func checkInfo(_ info: JSONValue?) {
        guard case .object = info ?? .null else {
            add(["info"], "required: info, an object with title and version")
            return
        }
        for field in ["title", "version"] where info?[field]?.stringValue == nil {
            add(["info", field], "required: a string")
        }
    }

    private mutating func checkServers(_ servers: JSONValue, at pointer: JSONPointer) {
        guard case .array(let items) = servers else {
            return add(pointer, "must be an array of server objects")
        }
        for (index, server) in items.enumerated() where server["url"]?.stringValue == nil {
            add(pointer.appending(index).appending("url"), "required: a string")
        }
    }

    private mutating func checkPaths(_ paths: JSONValue) {
        let pointer = JSONPointer(tokens: ["paths"])
        guard case .object(let items) = paths else { return add(pointer, "must be an object") }
        var operationIDs: [String: JSONPointer] = [:]
        for (path, rawItem) in items.sorted(by: { $0.key < $1.key }) {
            let itemPointer = pointer.appending(path)
            guard path.hasPrefix("/") else {
                add(itemPointer, "a path must start with '/'")
                continue
            }
            let item = document.resolve(rawItem)
            guard case .object = item else {
                add(itemPointer, "a path item must be an object")
                continue
            }
            let variables = Self.templateVariables(path)
            let shared = checkParameterList(item["parameters"], at: itemPointer.appending("parameters"))
            if let servers = item["servers"] { checkServers(servers, at: itemPointer.appending("servers")) }
            for method in OpenAPIDocument.methods {
                guard let operation = item[method] else { continue }
                let operationPointer = itemPointer.appending(method)
                guard case .object = operation else {
                    add(operationPointer, "an operation must be an object")
                    continue
                }
                if let id = operation["operationId"] {
                    if let text = id.stringValue {
                        if let first = operationIDs[text] {
                            add(
                                operationPointer.appending("operationId"),
                                "'\(text)' is also the operationId at \(first)")
                        } else {
                            operationIDs[text] = operationPointer
                        }
                    } else {
                        add(operationPointer.appending("operationId"), "must be a string")
                    }
                }
                let own = checkParameterList(
                    operation["parameters"], at: operationPointer.appending("parameters"))
                let pathParameters = Set((own + shared).filter { $0.location == "path" }.map(\.name))
                for variable in variables where !pathParameters.contains(variable) {
                    add(operationPointer, "the path variable {\(variable)} has no path parameter")
                }
                for declared in (own + shared)
                where declared.location == "path" && !variables.contains(declared.name) {
                    add(declared.pointer, "path parameter '\(declared.name)' is not in the path \(path)")
                }
                if let body = operation["requestBody"] {
                    checkRequestBody(document.resolve(body), at: operationPointer.appending("requestBody"))
                }
                checkResponses(operation["responses"], at: operationPointer.appending("responses"))
                if let security = operation["security"] {
                    checkSecurity(security, at: operationPointer.appending("security"))
                }
                if let servers = operation["servers"] {
                    checkServers(servers, at: operationPointer.appending("servers"))
                }
            }
        }
    }

    static func templateVariables(_ path: String) -> [String] {
        var names: [String] = []
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    private mutating func checkParameterList(_ list: JSONValue?, at pointer: JSONPointer)
        -> [(name: String, location: String, pointer: JSONPointer)]
    {
        guard let list else { return [] }
        guard case .array(let items) = list else {
            add(pointer, "must be an array of parameters")
            return []
        }
        var found: [(name: String, location: String, pointer: JSONPointer)] = []
        for (index, raw) in items.enumerated() {
            let at = pointer.appending(index)
            let parameter = document.resolve(raw)
            guard case .object = parameter else {
                add(at, "a parameter must be an object")
                continue
            }
            guard let name = parameter["name"]?.stringValue else {
                add(at.appending("name"), "required: a string")
                continue
            }
            guard
                let location = parameter["in"]?.stringValue.flatMap(OpenAPIParameterLocation.init(rawValue:))
            else {
                add(at.appending("in"), "required: one of path, query, header, cookie")
                continue
            }
            if found.contains(where: { $0.name == name && $0.location == location.rawValue }) {
                add(at, "parameter '\(name)' in \(location.rawValue) is declared twice")
            }
            found.append((name, location.rawValue, at))
            if location == .path, parameter["required"]?.boolValue != true {
                add(at.appending("required"), "a path parameter must have required: true")
            }
            if let style = parameter["style"] {
                if let text = style.stringValue, Self.parameterStyles[location]?.contains(text) == true {
                } else {
                    let allowed = (Self.parameterStyles[location] ?? []).sorted().joined(separator: ", ")
                    add(
                        at.appending("style"),
                        "style for a \(location.rawValue) parameter is one of \(allowed)")
                }
            }
            switch (parameter["schema"], parameter["content"]) {
            case (nil, nil): add(at, "a parameter needs schema or content")
            case (.some, .some): add(at, "a parameter has schema or content, not both")
            case (.some(let schema), nil): checkSchema(schema, at: at.appending("schema"))
            case (nil, .some(let content)):
                if case .object(let media) = content, media.count == 1 {
                } else {
                    add(at.appending("content"), "a parameter's content has exactly one media type")
                }
            }
        }
        return found
    }

    private mutating func checkRequestBody(_ body: JSONValue, at pointer: JSONPointer) {
        guard case .object = body else { return add(pointer, "a request body must be an object") }
        guard let content = body["content"] else {
            return add(pointer.appending("content"), "required: an object")
        }
        checkContent(content, at: pointer.appending("content"))
    }

    private mutating func checkContent(_ content: JSONValue, at pointer: JSONPointer) {
        guard case .object(let media) = content else {
            return add(pointer, "must be an object of media types")
        }
        for (type, value) in media.sorted(by: { $0.key < $1.key }) {
            guard case .object = value else {
                add(pointer.appending(type), "a media type object must be an object")
                continue
            }
            if let schema = value["schema"] {
                checkSchema(schema, at: pointer.appending(type).appending("schema"))
            }
        }
    }

    private mutating func checkResponses(_ responses: JSONValue?, at pointer: JSONPointer) {
        guard let responses else {
            if document.version == .v3_0 { add(pointer, "required: an object of responses") }
            return
        }
        guard case .object(let members) = responses else {
            return add(pointer, "must be an object of responses")
        }
        if members.isEmpty, document.version == .v3_0 { add(pointer, "must declare at least one response") }
        for (status, raw) in members.sorted(by: { $0.key < $1.key }) {
            let at = pointer.appending(status)
            if !Self.isStatusKey(status) && !status.hasPrefix("x-") {
                add(at, "'\(status)' is not a status code, a range like 4XX, or default")
                continue
            }
            let response = document.resolve(raw)
            guard case .object = response else {
                add(at, "a response must be an object")
                continue
            }
            if response["description"]?.stringValue == nil {
                add(at.appending("description"), "required: a string")
            }
            if let content = response["content"] { checkContent(content, at: at.appending("content")) }
        }
    }

    static func isStatusKey(_ key: String) -> Bool {
        if key == "default" { return true }
        let utf8 = Array(key.utf8)
        guard utf8.count == 3, (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(utf8[0]) else { return false }
        if utf8[1] == UInt8(ascii: "X") && utf8[2] == UInt8(ascii: "X") { return true }
        return utf8[1...].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private mutating func checkSecurity(_ security: JSONValue, at pointer: JSONPointer) {
        guard case .array(let requirements) = security else { return add(pointer, "must be an array") }
        let schemes = document.root["components"]?["securitySchemes"]
        for (index, requirement) in requirements.enumerated() {
            guard case .object(let names) = requirement else {
                add(pointer.appending(index), "a security requirement must be an object")
                continue
            }
            for name in names.keys.sorted() where schemes?[name] == nil {
                add(pointer.appending(index).appending(name), "no security scheme '\(name)' in components")
            }
        }
    }

    private mutating func checkComponents(_ components: JSONValue?) {
        guard let components else { return }
        let pointer = JSONPointer(tokens: ["components"])
        guard case .object = components else { return add(pointer, "must be an object") }
        if case .object(let schemas) = components["schemas"] ?? .null {
            for (name, schema) in schemas.sorted(by: { $0.key < $1.key }) {
                checkSchema(schema, at: pointer.appending("schemas").appending(name))
            }
        }
        if case .object(let schemes) = components["securitySchemes"] ?? .null {
            for (name, raw) in schemes.sorted(by: { $0.key < $1.key }) {
                checkSecurityScheme(
                    document.resolve(raw), at: pointer.appending("securitySchemes").appending(name))
            }
        }
    }

    private mutating func checkSecurityScheme(_ scheme: JSONValue, at pointer: JSONPointer) {
        switch scheme["type"]?.stringValue {
        case "apiKey":
            if scheme["name"]?.stringValue == nil { add(pointer.appending("name"), "required: a string") }
            if !["query", "header", "cookie"].contains(scheme["in"]?.stringValue ?? "") {
                add(pointer.appending("in"), "required: query, header or cookie")
            }
        case "http":
            if scheme["scheme"]?.stringValue == nil { add(pointer.appending("scheme"), "required: a string") }
        case "oauth2":
            if scheme["flows"] == nil { add(pointer.appending("flows"), "required: an object") }
        case "openIdConnect":
            if scheme["openIdConnectUrl"]?.stringValue == nil {
                add(pointer.appending("openIdConnectUrl"), "required: a string")
            }
        case "mutualTLS" where document.version == .v3_1:
            break
        default:
            add(pointer.appending("type"), "required: apiKey, http, oauth2 or openIdConnect")
        }
    }

    /// The schema keywords whose shape a validator depends on.
    private mutating func checkSchema(_ schema: JSONValue, at pointer: JSONPointer, depth: Int = 0) {
        guard depth < 64 else { return }
        if case .bool = schema, document.version == .v3_1 { return }
        guard case .object(let members) = schema else { return add(pointer, "a schema must be an object") }
        if let reference = members["$ref"] {
            if reference.stringValue == nil { add(pointer.appending("$ref"), "must be a string") }
            if document.version == .v3_0 { return }
        }
        switch members["type"] {
        case nil: break
        case .string(let type)? where Self.schemaTypes.contains(type):
            if type == "null" && document.version == .v3_0 {
                add(pointer.appending("type"), "type null is OpenAPI 3.1; in 3.0 use nullable: true")
            }
        case .array(let types)? where document.version == .v3_1:
            for (index, type) in types.enumerated() where !Self.schemaTypes.contains(type.stringValue ?? "") {
                add(pointer.appending("type").appending(index), "not a JSON Schema type")
            }
        default:
            add(
                pointer.appending("type"),
                "not a JSON Schema type" + (document.version == .v3_0 ? " (3.0 takes one string)" : ""))
        }
        if let required = members["required"] {
            if case .array(let names) = required, names.allSatisfy({ $0.stringValue != nil }) {
            } else {
                add(pointer.appending("required"), "must be an array of property names")
            }
        }
        if let enumeration = members["enum"], case .array = enumeration {
        } else if members["enum"] != nil {
            add(pointer.appending("enum"), "must be an array")
        }
        if let pattern = members["pattern"] {
            if let text = pattern.stringValue, (try? NSRegularExpression(pattern: text)) != nil {
            } else {
                add(pointer.appending("pattern"), "not a regular expression")
            }
        }
        if let properties = members["properties"] {
            if case .object(let named) = properties {
                for (name, property) in named.sorted(by: { $0.key < $1.key }) {
                    checkSchema(
                        property, at: pointer.appending("properties").appending(name), depth: depth + 1)
                }
            } else {
                add(pointer.appending("properties"), "must be an object of schemas")
            }
        }
        for key in ["items", "not", "additionalProperties"] {
            guard let child = members[key] else { continue }
            if key == "additionalProperties", case .bool = child { continue }
            if key == "items", case .array = child, document.version == .v3_0 {
                add(pointer.appending(key), "items is one schema in OpenAPI 3.0")
                continue
            }
            checkSchema(child, at: pointer.appending(key), depth: depth + 1)
        }
        for key in ["allOf", "oneOf", "anyOf", "prefixItems"] {
            guard let child = members[key] else { continue }
            guard case .array(let schemas) = child, !schemas.isEmpty else {
                add(pointer.appending(key), "must be a non-empty array of schemas")
                continue
            }
            for (index, item) in schemas.enumerated() {
                checkSchema(item, at: pointer.appending(key).appending(index), depth: depth + 1)
            }
        }
    }
}
