import CourierPrimitives
import Foundation

extension SwiftDeclarationWriter {
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The group an operation's first tag names, by tag (nil for untagged operations).
    func groups() throws(OpenAPIDocumentError) -> [String?: GroupDeclaration] {
        var tags: Set<String> = []
        var untagged = false
        if case .object(let paths)? = document.root["paths"] {
            for (path, raw) in paths {
                let (item, _) = try document.resolve(raw, at: PointerText.join("/paths", path))
                for method in Self.methods {
                    guard let operation = item[method] else { continue }
                    if case .array(let list)? = operation["tags"], let tag = list.first?.stringValue {
                        tags.insert(tag)
                    } else {
                        untagged = true
                    }
                }
            }
        }
        var result: [String?: GroupDeclaration] = [:]
        for tag in tags.sorted() {
            result[tag] = group(named: tag, tag: tag)
        }
        if untagged {
            let title = document.root["info"]?["title"]?.stringValue ?? "API"
            result[String?.none] = group(named: title, tag: nil)
        }
        return result
    }

    private func group(named text: String, tag: String?) -> GroupDeclaration {
        var base = SwiftNames.typeName(text)
        for suffix in ["EndPoint", "Endpoint", "API"]
        where base.hasSuffix(suffix) && base.count > suffix.count {
            base.removeLast(suffix.count)
            break
        }
        let enumName = SwiftNames.unique(base + "API", in: &typeNames)
        var derived = enumName
        derived.removeLast(3)
        derived = derived.prefix(1).lowercased() + derived.dropFirst()
        return GroupDeclaration(
            tag: tag, enumName: enumName, groupOverride: derived == (tag ?? derived) ? nil : tag)
    }

    /// Keys of an operation object that the declaration carries or reports on its own.
    private static let operationKeys: Set<String> = [
        "operationId", "summary", "description", "tags", "parameters", "requestBody", "responses", "security",
        "externalDocs",
    ]

    /// Declares the operation `method` of the path item `path`.
    func operation(
        path: String, method: String, item: JSONValue, itemPointer: String, in group: inout GroupDeclaration
    ) throws(OpenAPIDocumentError) -> OperationDeclaration {
        let rawPointer = PointerText.join(itemPointer, method)
        let (operation, pointer) = try document.resolve(item[method] ?? .null, at: rawPointer)
        guard case .object(let members) = operation else {
            throw .at(pointer, "an operation must be an object")
        }
        for key in members.keys.sorted() where !Self.operationKeys.contains(key) && !key.hasPrefix("x-") {
            report(PointerText.join(pointer, key), "the operation's '\(key)' is not declared")
        }
        if case .array(let tags)? = members["tags"], tags.count > 1 {
            report(PointerText.join(pointer, "tags"), "only the first tag is declared: it names the group")
        }
        if members["externalDocs"] != nil {
            report(
                PointerText.join(pointer, "externalDocs"), "external documentation is not declared",
                documentation: true)
        }
        // The function: named after the operation id (without the group's prefix), else the method and path.
        let groupName = group.groupOverride ?? derivedGroup(group.enumName)
        var base: String
        if let id = members["operationId"]?.stringValue {
            base = id.hasPrefix(groupName + ".") ? String(id.dropFirst(groupName.count + 1)) : id
        } else {
            base =
                method + " "
                + path.replacingOccurrences(of: "{", with: " by ").replacingOccurrences(of: "}", with: "")
        }
        // lowerCamelCase, as a function is: `UpdateArticle` as a name would be taken by the model of that name.
        var functionName = SwiftNames.caseName(base)
        if SwiftNames.keywords.contains(functionName) { functionName += "Operation" }
        functionName = SwiftNames.unique(functionName, in: &group.functionNames)
        let id = groupName + "." + functionName
        if members["operationId"]?.stringValue != id {
            report(
                members["operationId"] == nil ? pointer : PointerText.join(pointer, "operationId"),
                "operation ids are derived from the group and the function: declared as \(id)")
        }
        let summary = members["summary"]?.stringValue ?? members["description"]?.stringValue ?? ""
        if members["description"] != nil, members["description"]?.stringValue != summary {
            report(
                PointerText.join(pointer, "description"), "only the summary is declared", documentation: true)
        }
        let typePrefix = SwiftNames.typeName(functionName)
        var declaration = OperationDeclaration(
            functionName: functionName, summary: summary, method: method, path: path, status: 200,
            security: [], contentType: nil, errors: [], arguments: [], parts: [], response: "EmptyResponse",
            documentation: members["description"]?.stringValue ?? members["summary"]?.stringValue,
            errorModels: [])
        var labels: Set<String> = []
        try parameters(item, itemPointer, members, pointer, typePrefix, &declaration, &labels)
        try body(members, pointer, typePrefix, &declaration, &labels)
        declaration.security = security(members, pointer)
        try responses(members, pointer, typePrefix, &declaration)
        return declaration
    }

    private func derivedGroup(_ enumName: String) -> String {
        let base = enumName.dropLast(3)
        return base.prefix(1).lowercased() + base.dropFirst()
    }

    private static let parameterKeys: Set<String> = [
        "name", "in", "required", "schema", "description", "example", "examples", "deprecated",
    ]

    private func parameters(
        _ item: JSONValue, _ itemPointer: String, _ operation: [String: JSONValue], _ pointer: String,
        _ typePrefix: String,
        _ declaration: inout OperationDeclaration, _ labels: inout Set<String>
    ) throws(OpenAPIDocumentError) {
        var list: [(JSONValue, String)] = []
        if case .array(let shared)? = item["parameters"] {
            for (index, parameter) in shared.enumerated() {
                list.append((parameter, PointerText.join(itemPointer, "parameters", String(index))))
            }
        }
        if case .array(let own)? = operation["parameters"] {
            for (index, parameter) in own.enumerated() {
                list.append((parameter, PointerText.join(pointer, "parameters", String(index))))
            }
        }
        var resolved: [(parameter: JSONValue, pointer: String, key: String)] = []
        for (raw, rawPointer) in list {
            let (parameter, location) = try document.resolve(raw, at: rawPointer)
            guard let name = parameter["name"]?.stringValue, let place = parameter["in"]?.stringValue else {
                throw .at(location, "a parameter needs 'name' and 'in'")
            }
            let key = place + ":" + (place == "header" ? name.lowercased() : name)
            resolved.removeAll { $0.key == key }  // the operation's own override the path item's
            resolved.append((parameter, location, key))
        }
        // Path parameters in the template's order, then the others as listed.
        let templateNames = path(declaration.path)
        resolved.sort { lhs, rhs in
            let left = templateNames.firstIndex(of: lhs.parameter["name"]?.stringValue ?? "") ?? Int.max
            let right = templateNames.firstIndex(of: rhs.parameter["name"]?.stringValue ?? "") ?? Int.max
            return (lhs.parameter["in"] == .string("path") ? left : Int.max)
                < (rhs.parameter["in"] == .string("path") ? right : Int.max)
        }
        for (parameter, location, _) in resolved {
            let name = parameter["name"]?.stringValue ?? ""
            let place = parameter["in"]?.stringValue ?? ""
            let component: String
            switch place {
            case "path": component = "Path"
            case "query": component = "Query"
            case "header":
                if ["accept", "content-type", "authorization"].contains(name.lowercased()) {
                    report(location, "the header \(name) is set by the client, not declared as a parameter")
                    continue
                }
                component = "Header"
            default:
                report(location, "\(place) parameters are not declared")
                continue
            }
            // A value written as JSON (`content: application/json`) is declared with `json:`.
            var jsonMedia: String?
            if case .object(let media)? = parameter["content"], media.count == 1, let type = media.keys.first,
                Self.isJSON(type)
            {
                jsonMedia = type
            }
            for key in parameter.objectKeys
            where !Self.parameterKeys.contains(key) && !key.hasPrefix("x-")
                && (key != "content" || jsonMedia == nil)
            {
                let defaultStyle = (place == "query" ? "form" : "simple")
                if key == "style", parameter["style"]?.stringValue == defaultStyle { continue }
                if key == "explode", parameter["explode"]?.boolValue == (place == "query") { continue }
                report(PointerText.join(location, key), "the parameter's '\(key)' is not declared")
            }
            for key in ["example", "examples", "deprecated"] where parameter[key] != nil {
                report(
                    PointerText.join(location, key), "the parameter's \(key) is not declared",
                    documentation: true)
            }
            let schema =
                jsonMedia.flatMap { parameter["content"]?[$0]?["schema"] } ?? parameter["schema"]
                ?? .object([:])
            let schemaPointer =
                jsonMedia.map { PointerText.join(location, "content", $0, "schema") }
                ?? (parameter["schema"] != nil ? location + "/schema" : location)
            let (type, nullable) = try self.type(
                of: schema, at: schemaPointer, naming: .suggested(typePrefix + SwiftNames.typeName(name)))
            let resolvedSchema = valueSchema(
                (try? document.resolve(schema, at: schemaPointer).value) ?? schema, at: schemaPointer)
            let required = place == "path" || (parameter["required"]?.boolValue == true && !nullable)
            let label = SwiftNames.unique(SwiftNames.memberName(name), in: &labels)
            var arguments = [
                SwiftNames.literal(name), (jsonMedia == nil ? "" : "json: ") + SwiftNames.code(label),
            ]
            if let rules = try SchemaLiteral.refinement(
                itemsResolved(resolvedSchema, at: schemaPointer), type: underlying(type),
                underlying: underlying)
            {
                if jsonMedia == nil {
                    arguments.append(rules)
                } else {
                    report(
                        schemaPointer,
                        "the rules of a JSON parameter's value are its type's, not declared apart")
                }
            }
            if resolvedSchema["default"] != nil, jsonMedia != nil {
                report(
                    PointerText.join(schemaPointer, "default"),
                    "the default of a JSON parameter is not declared")
            } else if let value = resolvedSchema["default"] {
                if place == "query", let literal = defaultLiteral(value, type: type) {
                    arguments.append("default: \(literal)")
                } else {
                    report(
                        PointerText.join(schemaPointer, "default"),
                        "the default of a \(place) parameter is not declared")
                }
            }
            if let text = parameter["description"]?.stringValue { arguments.append(SwiftNames.literal(text)) }
            declaration.parts.append("\(component)(\(arguments.joined(separator: ", ")))")
            let example = parameter["example"] ?? resolvedSchema["example"] ?? resolvedSchema["default"]
            declaration.arguments.append(
                .init(
                    label: label, type: type.code, optional: !required,
                    sample: required || example != nil
                        ? SchemaLiteral.sample(
                            type, schema: example.map { .object(["example": $0]) } ?? resolvedSchema,
                            models: modelsByName) : nil))
        }
    }

    /// The names of a path template's parameters, in order.
    private func path(_ template: String) -> [String] {
        template.split(separator: "/").compactMap { segment in
            segment.first == "{" && segment.last == "}" ? String(segment.dropFirst().dropLast()) : nil
        }
    }

    /// A query parameter's default as a value of its Swift type, when it is one.
    private func defaultLiteral(_ value: JSONValue, type: SwiftType) -> String? {
        switch (type, value) {
        case (.builtin("String"), .string(let text)): return SwiftNames.literal(text)
        case (.builtin, .int(let number)) where SchemaLiteral.isInteger(type):
            return String(number)
        case (.builtin("Double"), _), (.builtin("Float"), _): return value.doubleValue.map { String($0) }
        case (.builtin("Bool"), .bool(let flag)): return String(flag)
        case (.named(let name), .string(let text)):
            if case .stringEnum(_, let cases, _)? = modelsByName[name],
                let match = cases.first(where: { $0.raw == text })
            {
                return ".\(SwiftNames.code(match.name))"
            }
            return nil
        default: return nil
        }
    }

    private static func isJSON(_ type: String) -> Bool {
        let bare = type.prefix { $0 != ";" }.lowercased()
        return bare == "application/json" || bare.hasSuffix("+json")
    }

    private func body(
        _ operation: [String: JSONValue], _ pointer: String, _ typePrefix: String,
        _ declaration: inout OperationDeclaration,
        _ labels: inout Set<String>
    ) throws(OpenAPIDocumentError) {
        guard let raw = operation["requestBody"] else { return }
        let (body, location) = try document.resolve(raw, at: pointer + "/requestBody")
        guard case .object(let content)? = body["content"], !content.isEmpty else {
            report(location, "a request body without content is not declared")
            return
        }
        if body["required"]?.boolValue != true {
            report(PointerText.join(location, "required"), "an optional request body is declared as required")
        }
        if body["description"] != nil {
            report(
                PointerText.join(location, "description"), "the body's description is not declared",
                documentation: true)
        }
        let types = content.keys.sorted()
        // A body whose schema becomes one model argument, wrapped as `part` (`Body`, `Form`).
        func declareModel(_ mediaType: String, as part: String) throws(OpenAPIDocumentError) {
            let schema = content[mediaType]?["schema"] ?? .object([:])
            let schemaPointer = PointerText.join(location, "content", mediaType, "schema")
            let (type, _) = try self.type(
                of: schema, at: schemaPointer, naming: .suggested(typePrefix + "Body"))
            let label = SwiftNames.unique("body", in: &labels)
            declaration.parts.append("\(part)(\(label))")
            declaration.arguments.append(
                .init(
                    label: label, type: type.code, optional: false,
                    sample: SchemaLiteral.sample(type, schema: schema, models: modelsByName)))
        }
        func reportTypes(besides mediaType: String) {
            for other in types where other != mediaType {
                report(
                    PointerText.join(location, "content", other),
                    "only one body media type is declared: \(mediaType)")
            }
        }
        if let json = types.first(where: Self.isJSON) {
            try declareModel(json, as: "Body")
            reportTypes(besides: json)
            return
        }
        if let form = types.first(where: { $0.lowercased().hasPrefix("application/x-www-form-urlencoded") }) {
            try declareModel(form, as: "Form")
            if content[form]?["encoding"] != nil {
                report(
                    PointerText.join(location, "content", form, "encoding"),
                    "a form's encoding is not declared: lists are sent as repeated fields")
            }
            reportTypes(besides: form)
            return
        }
        if let form = types.first(where: { $0.lowercased().hasPrefix("multipart/form-data") }) {
            let schemaPointer = PointerText.join(location, "content", form, "schema")
            let (schema, _) = try document.resolve(
                content[form]?["schema"] ?? .object([:]), at: schemaPointer)
            let fields = schema["properties"]?.objectKeys ?? []
            reportTypes(besides: form)
            guard fields.count == 1, let field = fields.first,
                try Self.isFile(
                    document.resolve(schema["properties"]?[field] ?? .null, at: schemaPointer).value)
            else {
                return try multipart(
                    content[form] ?? .null, schema, at: PointerText.join(location, "content", form),
                    typePrefix, &declaration, &labels)
            }
            let file = SwiftNames.unique("file", in: &labels)
            let contentType = SwiftNames.unique("contentType", in: &labels)
            var accepted = ["application/octet-stream"]
            if let listed = content[form]?["encoding"]?[field]?["contentType"]?.stringValue {
                accepted = listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            declaration.parts.append(
                "MultipartFile(\(SwiftNames.literal(field)), \(file), contentType: \(contentType), accepted: [\(accepted.map(SwiftNames.literal).joined(separator: ", "))])"
            )
            declaration.arguments += [
                .init(label: file, type: "URL", optional: false, sample: "URL(fileURLWithPath: \"upload\")"),
                .init(
                    label: contentType, type: "String", optional: false,
                    sample: SwiftNames.literal(accepted[0])),
            ]
            return
        }
        let binary = types
        guard let first = binary.first else { return }
        let file = SwiftNames.unique("file", in: &labels)
        let contentType = SwiftNames.unique("contentType", in: &labels)
        // Bytes written as base64 text (`format: base64`, or 3.1's `contentEncoding: base64`) in every type.
        var base64 = true
        for type in binary {
            let schemaPointer = PointerText.join(location, "content", type, "schema")
            guard let raw = content[type]?["schema"] else {
                base64 = false
                continue
            }
            let schema = try document.resolve(raw, at: schemaPointer).value
            let encoding = schema["contentEncoding"]?.stringValue ?? schema["format"]?.stringValue
            if encoding?.lowercased() != "base64" { base64 = false }
        }
        declaration.parts.append(
            "FileUpload(\(file), contentType: \(contentType), accepted: [\(binary.map(SwiftNames.literal).joined(separator: ", "))]\(base64 ? ", base64: true" : ""))"
        )
        declaration.arguments += [
            .init(label: file, type: "URL", optional: false, sample: "URL(fileURLWithPath: \"upload\")"),
            .init(label: contentType, type: "String", optional: false, sample: SwiftNames.literal(first)),
        ]
    }

    /// Whether a schema is a file's bytes: a `binary` string, or one with a `contentMediaType`.
    private static func isFile(_ schema: JSONValue) -> Bool {
        schema["format"] == .string("binary") || schema["contentMediaType"] != nil
    }

    /// A multipart form declared field by field: `.value` for each value, `.file` for each file with
    /// its media type as an argument.
    private func multipart(
        _ media: JSONValue, _ schema: JSONValue, at pointer: String, _ typePrefix: String,
        _ declaration: inout OperationDeclaration, _ labels: inout Set<String>
    ) throws(OpenAPIDocumentError) {
        guard case .object(let properties)? = schema["properties"], !properties.isEmpty else {
            report(pointer, "a multipart form without properties is not declared")
            return
        }
        let required =
            (schema["required"].flatMap { value -> [String]? in
                if case .array(let names) = value { return names.compactMap(\.stringValue) }
                return nil
            }) ?? []
        let names =
            required.filter { properties[$0] != nil }
            + properties.keys.sorted().filter { !required.contains($0) }
        var fields: [String] = []
        for name in names {
            let fieldPointer = PointerText.join(pointer, "schema", "properties", name)
            let raw = properties[name] ?? .null
            let resolved = try document.resolve(raw, at: fieldPointer).value
            let label = SwiftNames.unique(SwiftNames.memberName(name), in: &labels)
            guard Self.isFile(resolved) else {
                let (type, nullable) = try self.type(
                    of: raw, at: fieldPointer, naming: .suggested(typePrefix + SwiftNames.typeName(name)))
                let optional = !required.contains(name) || nullable
                fields.append(".value(\(SwiftNames.literal(name)), \(SwiftNames.code(label)))")
                declaration.arguments.append(
                    .init(
                        label: label, type: type.code, optional: optional,
                        sample: optional
                            ? nil : SchemaLiteral.sample(type, schema: resolved, models: modelsByName)))
                continue
            }
            if !required.contains(name) {
                report(fieldPointer, "an optional file field is declared as required")
            }
            let contentType = SwiftNames.unique(label.trimmingBackticks + "ContentType", in: &labels)
            var accepted: [String] = []
            if let listed = media["encoding"]?[name]?["contentType"]?.stringValue {
                accepted = listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            let acceptedCode =
                accepted.isEmpty
                ? "" : ", accepted: [\(accepted.map(SwiftNames.literal).joined(separator: ", "))]"
            fields.append(
                ".file(\(SwiftNames.literal(name)), \(SwiftNames.code(label)), contentType: \(SwiftNames.code(contentType))\(acceptedCode))"
            )
            declaration.arguments += [
                .init(label: label, type: "URL", optional: false, sample: "URL(fileURLWithPath: \"upload\")"),
                .init(
                    label: contentType, type: "String", optional: false,
                    sample: SwiftNames.literal(accepted.first ?? "application/octet-stream")),
            ]
        }
        declaration.parts.append("Multipart(\(fields.joined(separator: ", ")))")
    }

    /// The schemes the operation takes, as `SecurityScheme` expressions, any one of them; what they
    /// cannot say (scopes, flows, several schemes at once, optional security) is reported.
    private func security(_ operation: [String: JSONValue], _ pointer: String) -> [String] {
        let own = operation["security"] != nil
        guard case .array(let alternatives)? = operation["security"] ?? document.root["security"],
            !alternatives.isEmpty
        else {
            return []
        }
        let where_ = own ? pointer + "/security" : "/security"
        if alternatives.contains(.object([:])) {
            report(where_, "optional security is not declared: the operation is declared without credentials")
            return []
        }
        var schemes: [String] = []
        for (index, alternative) in alternatives.enumerated() {
            let names = alternative.objectKeys
            if names.count > 1 {
                report(
                    PointerText.join(where_, String(index)),
                    "schemes required together are not declared: \(names[0]) alone is")
            }
            guard let name = names.first,
                let scheme = securityScheme(name, at: PointerText.join(where_, String(index), name))
            else { continue }
            if case .array(let scopes)? = alternative[name], !scopes.isEmpty {
                report(PointerText.join(where_, String(index), name), "scopes are not declared")
            }
            if !schemes.contains(scheme) { schemes.append(scheme) }
        }
        return schemes
    }

    /// The `SecurityScheme` expression of the component scheme `name`; nil, reported, for one a
    /// declaration cannot take.
    private func securityScheme(_ name: String, at pointer: String) -> String? {
        let place = PointerText.join("/components/securitySchemes", name)
        // The loader checked every reference, so resolving cannot fail here.
        let scheme = document.value(at: place).flatMap {
            try? document.resolve($0, at: place).value  // allowed: references checked on load
        }
        let renamed = { (base: String, defaultName: String) in
            name == defaultName ? base : base + ".named(\(SwiftNames.literal(name)))"
        }
        switch (scheme?["type"]?.stringValue, scheme?["scheme"]?.stringValue?.lowercased()) {
        case ("http", "bearer"?):
            return renamed(".bearer", "bearer")
        case ("http", "basic"?):
            return renamed(".basic", "basic")
        case ("apiKey", _):
            guard let field = scheme?["name"]?.stringValue, let location = scheme?["in"]?.stringValue else {
                return nil
            }
            let place = location == "header" ? "" : ", in: .\(location)"
            return renamed(".apiKey(\(SwiftNames.literal(field))\(place))", "apiKey")
        case ("oauth2", _), ("openIdConnect", _):
            report(pointer, "\(name) is declared as a bearer token; its flows and scopes are not declared")
            return ".bearer.named(\(SwiftNames.literal(name)))"
        default:
            report(
                pointer,
                "the security scheme \(name) is not declared: a declaration takes bearer, basic or API keys")
            return nil
        }
    }

    private func responses(
        _ operation: [String: JSONValue], _ pointer: String, _ typePrefix: String,
        _ declaration: inout OperationDeclaration
    ) throws(OpenAPIDocumentError) {
        let responsesPointer = pointer + "/responses"
        guard case .object(let responses)? = operation["responses"] else {
            declaration.status = nil
            return
        }
        let numeric = responses.keys.compactMap { Int($0) }.sorted()
        for key in responses.keys.sorted() where Int(key) == nil && !key.hasPrefix("x-") {
            report(
                PointerText.join(responsesPointer, key),
                "'\(key)' responses are not declared: only single statuses are")
        }
        let successes = numeric.filter { (200..<300).contains($0) }
        // No 2xx (only errors, or a redirect): the operation is declared with no success status.
        declaration.status = successes.first
        var first: (type: String, contentType: String?)?
        for success in successes {
            let (response, location) = try document.resolve(
                responses[String(success)] ?? .null, at: PointerText.join(responsesPointer, String(success)))
            let body = try responseType(
                response, location,
                typePrefix + "Response" + (success == successes[0] ? "" : String(success)),
                error: false)
            if let text = response["description"]?.stringValue, text != declaration.summary {
                report(
                    PointerText.join(location, "description"),
                    "the success response's description is the operation's summary", documentation: true)
            }
            guard success != successes[0] else {
                first = body
                declaration.response = body?.type ?? "EmptyResponse"
                declaration.contentType = body?.contentType
                continue
            }
            // Another success status is declared when its body is the first's.
            if body?.type == first?.type, body?.contentType == first?.contentType {
                declaration.otherStatuses.append(success)
            } else {
                report(
                    PointerText.join(responsesPointer, String(success)),
                    "a success status whose body differs from the first's is not declared: \(successes[0]) is"
                )
            }
        }
        for status in numeric where !(200..<300).contains(status) {
            let (response, location) = try document.resolve(
                responses[String(status)] ?? .null, at: PointerText.join(responsesPointer, String(status)))
            declaration.errors.append(status)
            let body = try responseType(
                response, location, typePrefix + "Error" + String(status), error: true)
            declaration.errorModels.append((String(status), location, body?.type, body?.contentType))
            if let text = response["description"]?.stringValue, text != HTTPStatus.reason(for: status) {
                report(
                    PointerText.join(location, "description"),
                    "error responses are described as \"\(HTTPStatus.reason(for: status))\"",
                    documentation: true)
            }
        }
    }

    /// The Swift type of a response's body and its media type (nil for `application/json`); nil for
    /// no body. JSON is decoded into the schema's type; text is a `String` and other bytes `Data`.
    private func responseType(_ response: JSONValue, _ location: String, _ name: String, error: Bool)
        throws(OpenAPIDocumentError) -> (type: String, contentType: String?)?
    {
        for key in ["headers", "links"] where response[key] != nil {
            report(PointerText.join(location, key), "response \(key) are not declared")
        }
        guard case .object(let content)? = response["content"], !content.isEmpty else { return nil }
        let types = content.keys.sorted()
        let wildcard = try structuredWildcard(content, location)
        guard let json = types.first(where: Self.isJSON) ?? wildcard else {
            guard !error, let first = types.first else {
                report(
                    PointerText.join(location, "content"), "an error body that is not JSON is not declared")
                return nil
            }
            for other in types.dropFirst() {
                report(
                    PointerText.join(location, "content", other),
                    "only one response media type is declared: \(first)")
            }
            let schemaPointer = PointerText.join(location, "content", first, "schema")
            if let schema = content[first]?["schema"],
                try !Self.isRawString(document.resolve(schema, at: schemaPointer).value)
            {
                report(schemaPointer, "the body is declared as raw \(first), without its schema")
            }
            return (first.lowercased().hasPrefix("text/") ? "String" : "Data", first)
        }
        for other in types where other != json {
            report(
                PointerText.join(location, "content", other),
                "only one response media type is declared: \(json)")
        }
        let schemaPointer = PointerText.join(location, "content", json, "schema")
        let (type, nullable) = try self.type(
            of: content[json]?["schema"] ?? .object([:]), at: schemaPointer, naming: .suggested(name))
        if nullable { report(schemaPointer, "a null body is not declared") }
        return (type.code, json == "application/json" ? nil : json)
    }

    /// A media range such as `*/*` whose schema describes structured values (an object, an array, a
    /// number): such a body can only be JSON, so it is decoded as the schema says.
    private func structuredWildcard(_ content: [String: JSONValue], _ location: String)
        throws(OpenAPIDocumentError) -> String?
    {
        for type in content.keys.sorted() where type.hasSuffix("/*") {
            guard let schema = content[type]?["schema"] else { continue }
            let schemaPointer = PointerText.join(location, "content", type, "schema")
            if try !Self.isRawString(document.resolve(schema, at: schemaPointer).value) { return type }
        }
        return nil
    }

    /// Whether a schema says no more than "a string" (of bytes, or of text).
    private static func isRawString(_ schema: JSONValue) -> Bool {
        let keys = Set(schema.objectKeys).subtracting(["description", "title", "example", "examples"])
        guard keys.isSubset(of: ["type", "format", "contentMediaType", "contentEncoding"]) else {
            return false
        }
        return schema["type"] == nil || schema["type"] == .string("string")
    }
}

extension JSONValue {
    /// The keys of an object (none for another value).
    var objectKeys: [String] {
        if case .object(let members) = self { return members.keys.sorted() }
        return []
    }
}
