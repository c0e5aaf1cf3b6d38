import CourierPrimitives
import Foundation

/// The OpenAPI specification's rules that a mock or a generator relies on, checked everywhere and all
/// reported, each with its pointer. Each object is checked where it is written: in the document, in a
/// component, or in the file a `$ref` names.
struct StructureCheck {
    let document: OpenAPIDocument
    private var problems: [OpenAPIProblem] = []
    /// The file being checked: nil for the document itself.
    private var file: String?
    /// The references into other files already followed.
    private var visited: Set<String> = []
    private var operationIDs: [String: JSONPointer] = [:]

    init(document: OpenAPIDocument) { self.document = document }

    private static let parameterStyles: [OpenAPIParameterLocation: Set<String>] = [
        .path: ["simple", "label", "matrix"],
        .query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
        .header: ["simple"],
        .cookie: ["form"],
    ]
    private static let encodingStyles: Set<String> = [
        "form", "spaceDelimited", "pipeDelimited", "deepObject",
    ]
    private static let schemaTypes: Set<String> = [
        "null", "boolean", "object", "array", "number", "string", "integer",
    ]

    /// Where the paths of a map of path items come from.
    private enum PathMap {
        /// `paths`: templates starting with `/`, whose variables need path parameters.
        case paths
        /// `webhooks`, or a callback's runtime expressions: names, not templates.
        case names
    }

    mutating func run() -> [OpenAPIProblem] {
        let root = document.root
        checkFields(root, as: .document, at: .root)
        checkInfo(root["info"])
        switch (document.version, root["paths"]) {
        case (.v3_0, nil):
            add([], "required: paths, an object")
        case (.v3_1, nil) where root["components"] == nil && root["webhooks"] == nil:
            add([], "required: one of paths, components or webhooks")
        case (_, .some(let paths)):
            checkPathItems(paths, at: JSONPointer(tokens: ["paths"]), as: .paths)
        default:
            break
        }
        if document.version == .v3_1, let webhooks = root["webhooks"] {
            checkPathItems(webhooks, at: JSONPointer(tokens: ["webhooks"]), as: .names)
        }
        if let servers = root["servers"] { checkServers(servers, at: JSONPointer(tokens: ["servers"])) }
        checkComponents(root["components"])
        if let security = root["security"] { checkSecurity(security, at: JSONPointer(tokens: ["security"])) }
        if let tags = root["tags"] { checkTags(tags) }
        return problems.sorted { ($0.file ?? "", $0.pointer) < ($1.file ?? "", $1.pointer) }
    }

    private mutating func add(_ tokens: [String], _ message: String) {
        add(JSONPointer(tokens: tokens), message)
    }

    mutating func add(_ pointer: JSONPointer, _ message: String) {
        problems.append(OpenAPIProblem(file: file, pointer: pointer, message: message))
    }

    /// Checks `raw` where it is written: here when it is inline; when it is a `$ref` into another file,
    /// at its place in that file, once; a `$ref` within the document is checked where it points.
    private mutating func visit(
        _ raw: JSONValue, at pointer: JSONPointer, as kind: ObjectKind,
        _ check: (inout StructureCheck, JSONValue, JSONPointer) -> Void
    ) {
        guard let reference = raw["$ref"]?.stringValue else {
            if case .object = raw { checkFields(raw, as: kind, at: pointer) }
            return check(&self, raw, pointer)
        }
        checkFields(raw, as: kind, at: pointer)
        let (target, fragment) = OpenAPIDocument.split(reference)
        guard !target.isEmpty, visited.insert(reference).inserted, let value = document.target(of: reference),
            let place = try? JSONPointer(fragment: fragment)  // allowed: the loader refused bad ones
        else { return }
        let outer = file
        file = target
        visit(value, at: place, as: kind, check)
        file = outer
    }

    private mutating func checkInfo(_ info: JSONValue?) {
        guard case .object = info ?? .null else {
            add(["info"], "required: info, an object with title and version")
            return
        }
        let pointer = JSONPointer(tokens: ["info"])
        checkFields(info ?? .null, as: .info, at: pointer)
        for field in ["title", "version"] where info?[field]?.stringValue == nil {
            add(["info", field], "required: a string")
        }
        if let contact = info?["contact"] {
            checkFields(contact, as: .contact, at: pointer.appending("contact"))
        }
        if let license = info?["license"] {
            checkFields(license, as: .license, at: pointer.appending("license"))
            if license["name"]?.stringValue == nil {
                add(pointer.appending("license").appending("name"), "required: a string")
            }
        }
    }

    private mutating func checkTags(_ tags: JSONValue) {
        let pointer = JSONPointer(tokens: ["tags"])
        guard case .array(let items) = tags else { return add(pointer, "must be an array of tags") }
        for (index, tag) in items.enumerated() {
            checkFields(tag, as: .tag, at: pointer.appending(index))
            if tag["name"]?.stringValue == nil {
                add(pointer.appending(index).appending("name"), "required: a string")
            }
        }
    }

    private mutating func checkServers(_ servers: JSONValue, at pointer: JSONPointer) {
        guard case .array(let items) = servers else {
            return add(pointer, "must be an array of server objects")
        }
        for (index, server) in items.enumerated() {
            let at = pointer.appending(index)
            guard case .object = server else {
                add(at, "a server must be an object")
                continue
            }
            checkFields(server, as: .server, at: at)
            if server["url"]?.stringValue == nil { add(at.appending("url"), "required: a string") }
            guard let variables = server["variables"] else { continue }
            guard case .object(let named) = variables else {
                add(at.appending("variables"), "must be an object of server variables")
                continue
            }
            for (name, variable) in named.sorted(by: { $0.key < $1.key }) {
                let place = at.appending("variables").appending(name)
                checkFields(variable, as: .serverVariable, at: place)
                if variable["default"]?.stringValue == nil {
                    add(place.appending("default"), "required: a string")
                }
                if let options = variable["enum"] {
                    // 3.1 asks for at least one value; 3.0 lets the list be empty.
                    if case .array(let values) = options, !values.isEmpty || document.version == .v3_0,
                        values.allSatisfy({ $0.stringValue != nil })
                    {
                    } else {
                        add(place.appending("enum"), "must be a non-empty array of strings")
                    }
                }
            }
        }
    }

    /// `paths`, `webhooks` or a callback: path items by path, name or expression.
    private mutating func checkPathItems(_ map: JSONValue, at pointer: JSONPointer, as kind: PathMap) {
        guard case .object(let items) = map else { return add(pointer, "must be an object of path items") }
        for (path, rawItem) in items.sorted(by: { $0.key < $1.key })
        where !path.hasPrefix("x-") || kind == .names {
            let itemPointer = pointer.appending(path)
            if kind == .paths, !path.hasPrefix("/") {
                add(itemPointer, "a path must start with '/'")
                continue
            }
            guard case .object = document.resolve(rawItem) else {
                add(itemPointer, "a path item must be an object")
                continue
            }
            if kind == .paths { checkPathVariables(path, item: rawItem, at: itemPointer) }
            checkPathItem(rawItem, at: itemPointer)
        }
    }

    /// A path item where it is written; with a `$ref`, its own fields and then what it names.
    private mutating func checkPathItem(_ raw: JSONValue, at pointer: JSONPointer) {
        visit(raw, at: pointer, as: .pathItem) { check, item, at in
            check.checkParameterList(item["parameters"], at: at.appending("parameters"))
            if let servers = item["servers"] { check.checkServers(servers, at: at.appending("servers")) }
            for method in OpenAPIDocument.methods {
                guard let operation = item[method] else { continue }
                check.checkOperation(operation, at: at.appending(method))
            }
        }
    }

    /// Every template variable has a path parameter, and every path parameter a variable.
    private mutating func checkPathVariables(_ path: String, item raw: JSONValue, at itemPointer: JSONPointer)
    {
        let item = document.resolve(raw)
        let variables = Self.templateVariables(path)
        let shared = declaredParameters(item["parameters"], at: itemPointer.appending("parameters"))
        for method in OpenAPIDocument.methods {
            guard let operation = item[method], case .object = operation else { continue }
            let operationPointer = itemPointer.appending(method)
            let own = declaredParameters(
                operation["parameters"], at: operationPointer.appending("parameters"))
            let pathParameters = Set((own + shared).filter { $0.location == .path }.map(\.name))
            for variable in variables where !pathParameters.contains(variable) {
                add(operationPointer, "the path variable {\(variable)} has no path parameter")
            }
            for declared in own + shared
            where declared.location == .path && !variables.contains(declared.name) {
                add(declared.pointer, "path parameter '\(declared.name)' is not in the path \(path)")
            }
        }
    }

    private mutating func checkOperation(_ operation: JSONValue, at operationPointer: JSONPointer) {
        guard case .object = operation else { return add(operationPointer, "an operation must be an object") }
        checkFields(operation, as: .operation, at: operationPointer)
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
        checkParameterList(operation["parameters"], at: operationPointer.appending("parameters"))
        if let body = operation["requestBody"] {
            visit(body, at: operationPointer.appending("requestBody"), as: .requestBody) { check, value, at in
                check.checkRequestBody(value, at: at)
            }
        }
        checkResponses(operation["responses"], at: operationPointer.appending("responses"))
        if let callbacks = operation["callbacks"] {
            checkCallbacks(callbacks, at: operationPointer.appending("callbacks"))
        }
        if let security = operation["security"] {
            checkSecurity(security, at: operationPointer.appending("security"))
        }
        if let servers = operation["servers"] {
            checkServers(servers, at: operationPointer.appending("servers"))
        }
    }

    private mutating func checkCallbacks(_ callbacks: JSONValue, at pointer: JSONPointer) {
        guard case .object(let named) = callbacks else {
            return add(pointer, "must be an object of callbacks")
        }
        for (name, raw) in named.sorted(by: { $0.key < $1.key }) {
            checkCallback(raw, at: pointer.appending(name))
        }
    }

    /// A callback: path items by runtime expression.
    private mutating func checkCallback(_ raw: JSONValue, at pointer: JSONPointer) {
        guard case .object = document.resolve(raw) else {
            return add(pointer, "a callback must be an object")
        }
        visit(raw, at: pointer, as: .callback) { check, value, at in
            check.checkPathItems(value, at: at, as: .names)
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

    /// The parameters a list declares, references followed, for the checks across a path item.
    private func declaredParameters(_ list: JSONValue?, at pointer: JSONPointer)
        -> [(name: String, location: OpenAPIParameterLocation, pointer: JSONPointer)]
    {
        guard case .array(let items) = list ?? .null else { return [] }
        return items.enumerated().compactMap { index, raw in
            let parameter = document.resolve(raw)
            guard let name = parameter["name"]?.stringValue,
                let location = parameter["in"]?.stringValue.flatMap(OpenAPIParameterLocation.init(rawValue:))
            else { return nil }
            return (name, location, pointer.appending(index))
        }
    }

    private mutating func checkParameterList(_ list: JSONValue?, at pointer: JSONPointer) {
        guard let list else { return }
        guard case .array(let items) = list else { return add(pointer, "must be an array of parameters") }
        var found: [(String, OpenAPIParameterLocation)] = []
        for declared in declaredParameters(list, at: pointer) {
            if found.contains(where: { $0 == (declared.name, declared.location) }) {
                add(
                    declared.pointer,
                    "parameter '\(declared.name)' in \(declared.location.rawValue) is declared twice")
            }
            found.append((declared.name, declared.location))
        }
        for (index, raw) in items.enumerated() {
            guard case .object = document.resolve(raw) else {
                add(pointer.appending(index), "a parameter must be an object")
                continue
            }
            visit(raw, at: pointer.appending(index), as: .parameter) { check, parameter, at in
                check.checkParameter(parameter, at: at)
            }
        }
    }

    /// A parameter object where it is written.
    private mutating func checkParameter(_ parameter: JSONValue, at: JSONPointer) {
        guard case .object = parameter else { return add(at, "a parameter must be an object") }
        guard parameter["name"]?.stringValue != nil else {
            return add(at.appending("name"), "required: a string")
        }
        guard
            let location = parameter["in"]?.stringValue.flatMap(OpenAPIParameterLocation.init(rawValue:))
        else {
            return add(at.appending("in"), "required: one of path, query, header, cookie")
        }
        if location == .path, parameter["required"]?.boolValue != true {
            add(at.appending("required"), "a path parameter must have required: true")
        }
        checkStyle(
            parameter["style"], allowed: Self.parameterStyles[location] ?? [],
            of: "a \(location.rawValue) parameter", at: at)
        checkSchemaOrContent(parameter, at: at)
    }

    /// A header object (in a response or an encoding) where it is written.
    private mutating func checkHeader(_ header: JSONValue, at: JSONPointer) {
        guard case .object = header else { return add(at, "a header must be an object") }
        checkStyle(header["style"], allowed: ["simple"], of: "a header", at: at)
        checkSchemaOrContent(header, at: at)
    }

    private mutating func checkStyle(
        _ style: JSONValue?, allowed: Set<String>, of owner: String, at: JSONPointer
    ) {
        guard let style else { return }
        if let text = style.stringValue, allowed.contains(text) { return }
        add(at.appending("style"), "style for \(owner) is one of \(allowed.sorted().joined(separator: ", "))")
    }

    private mutating func checkSchemaOrContent(_ value: JSONValue, at: JSONPointer) {
        switch (value["schema"], value["content"]) {
        case (nil, nil): add(at, "a parameter needs schema or content")
        case (.some, .some): add(at, "a parameter has schema or content, not both")
        case (.some(let schema), nil): checkSchema(schema, at: at.appending("schema"))
        case (nil, .some(let content)):
            if case .object(let media) = content, media.count == 1 {
                checkContent(content, at: at.appending("content"))
            } else {
                add(at.appending("content"), "a parameter's content has exactly one media type")
            }
        }
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
            let at = pointer.appending(type)
            guard case .object = value else {
                add(at, "a media type object must be an object")
                continue
            }
            checkFields(value, as: .mediaType, at: at)
            if let schema = value["schema"] { checkSchema(schema, at: at.appending("schema")) }
            guard let encoding = value["encoding"] else { continue }
            guard case .object(let properties) = encoding else {
                add(at.appending("encoding"), "must be an object of encodings")
                continue
            }
            for (name, rules) in properties.sorted(by: { $0.key < $1.key }) {
                let place = at.appending("encoding").appending(name)
                checkFields(rules, as: .encoding, at: place)
                checkStyle(rules["style"], allowed: Self.encodingStyles, of: "an encoding", at: place)
                if let headers = rules["headers"] { checkHeaders(headers, at: place.appending("headers")) }
            }
        }
    }

    private mutating func checkHeaders(_ headers: JSONValue, at pointer: JSONPointer) {
        guard case .object(let named) = headers else { return add(pointer, "must be an object of headers") }
        for (name, raw) in named.sorted(by: { $0.key < $1.key }) {
            visit(raw, at: pointer.appending(name), as: .header) { check, header, at in
                check.checkHeader(header, at: at)
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
        if members.isEmpty { add(pointer, "must declare at least one response") }
        for (status, raw) in members.sorted(by: { $0.key < $1.key }) {
            let at = pointer.appending(status)
            if !Self.isStatusKey(status) && !status.hasPrefix("x-") {
                add(at, "'\(status)' is not a status code, a range like 4XX, or default")
                continue
            }
            if status.hasPrefix("x-") { continue }
            guard case .object = document.resolve(raw) else {
                add(at, "a response must be an object")
                continue
            }
            visit(raw, at: at, as: .response) { check, response, at in
                check.checkResponse(response, at: at)
            }
        }
    }

    private mutating func checkResponse(_ response: JSONValue, at: JSONPointer) {
        if response["description"]?.stringValue == nil {
            add(at.appending("description"), "required: a string")
        }
        if let headers = response["headers"] { checkHeaders(headers, at: at.appending("headers")) }
        if let content = response["content"] { checkContent(content, at: at.appending("content")) }
        for (name, link) in Self.members(response["links"]) {
            visit(link, at: at.appending("links").appending(name), as: .link) { _, _, _ in }
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
        checkFields(components, as: .components, at: pointer)
        if document.version == .v3_1 {
            // 3.1 names components as a `$ref` can carry them unescaped.
            for (kind, map) in Self.members(components) where !kind.hasPrefix("x-") {
                for (name, _) in Self.members(map) where !Self.isComponentName(name) {
                    add(
                        pointer.appending(kind).appending(name),
                        "a component's name is letters, digits, '.', '-' and '_'")
                }
            }
        }
        for (name, link) in Self.members(components["links"]) {
            visit(link, at: pointer.appending("links").appending(name), as: .link) { _, _, _ in }
        }
        for (name, schema) in Self.members(components["schemas"]) {
            checkSchema(schema, at: pointer.appending("schemas").appending(name))
        }
        for (name, raw) in Self.members(components["securitySchemes"]) {
            visit(raw, at: pointer.appending("securitySchemes").appending(name), as: .securityScheme) {
                check, scheme, at in check.checkSecurityScheme(scheme, at: at)
            }
        }
        for (name, raw) in Self.members(components["parameters"]) {
            visit(raw, at: pointer.appending("parameters").appending(name), as: .parameter) {
                check, parameter, at in check.checkParameter(parameter, at: at)
            }
        }
        for (name, raw) in Self.members(components["headers"]) {
            visit(raw, at: pointer.appending("headers").appending(name), as: .header) { check, header, at in
                check.checkHeader(header, at: at)
            }
        }
        for (name, raw) in Self.members(components["requestBodies"]) {
            visit(raw, at: pointer.appending("requestBodies").appending(name), as: .requestBody) {
                check, body, at in check.checkRequestBody(body, at: at)
            }
        }
        for (name, raw) in Self.members(components["responses"]) {
            visit(raw, at: pointer.appending("responses").appending(name), as: .response) {
                check, response, at in check.checkResponse(response, at: at)
            }
        }
        for (name, raw) in Self.members(components["callbacks"]) {
            checkCallback(raw, at: pointer.appending("callbacks").appending(name))
        }
        if document.version == .v3_1 {
            for (name, raw) in Self.members(components["pathItems"]) {
                checkPathItem(raw, at: pointer.appending("pathItems").appending(name))
            }
        }
    }

    /// Whether a name matches `^[a-zA-Z0-9._-]+$`.
    private static func isComponentName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || $0 == "." || $0 == "-" || $0 == "_"
            }
    }

    /// An object's members in key order; none when it is not an object.
    private static func members(_ value: JSONValue?) -> [(key: String, value: JSONValue)] {
        guard case .object(let members) = value ?? .null else { return [] }
        return members.sorted { $0.key < $1.key }
    }

    private mutating func checkSecurityScheme(_ scheme: JSONValue, at pointer: JSONPointer) {
        guard case .object = scheme else { return add(pointer, "a security scheme must be an object") }
        switch scheme["type"]?.stringValue {
        case "apiKey":
            if scheme["name"]?.stringValue == nil { add(pointer.appending("name"), "required: a string") }
            if !["query", "header", "cookie"].contains(scheme["in"]?.stringValue ?? "") {
                add(pointer.appending("in"), "required: query, header or cookie")
            }
        case "http":
            if scheme["scheme"]?.stringValue == nil { add(pointer.appending("scheme"), "required: a string") }
        case "oauth2":
            guard let flows = scheme["flows"], case .object = flows else {
                return add(pointer.appending("flows"), "required: an object")
            }
            checkOAuthFlows(flows, at: pointer.appending("flows"))
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

    /// Each flow's URLs, as its kind needs them, and its scopes.
    private mutating func checkOAuthFlows(_ flows: JSONValue, at pointer: JSONPointer) {
        checkFields(flows, as: .oauthFlows, at: pointer)
        let needs: [String: [String]] = [
            "implicit": ["authorizationUrl"], "password": ["tokenUrl"], "clientCredentials": ["tokenUrl"],
            "authorizationCode": ["authorizationUrl", "tokenUrl"],
        ]
        for (kind, flow) in Self.members(flows) where needs[kind] != nil {
            let at = pointer.appending(kind)
            checkFields(flow, as: .oauthFlow, at: at)
            for field in needs[kind] ?? [] where flow[field]?.stringValue == nil {
                add(at.appending(field), "required: a string")
            }
            guard case .object(let scopes) = flow["scopes"] ?? .null else {
                add(at.appending("scopes"), "required: an object of scope descriptions")
                continue
            }
            for (name, text) in scopes.sorted(by: { $0.key < $1.key }) where text.stringValue == nil {
                add(at.appending("scopes").appending(name), "must be a string")
            }
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
        if let discriminator = members["discriminator"], discriminator["propertyName"]?.stringValue == nil {
            add(pointer.appending("discriminator").appending("propertyName"), "required: a string")
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
