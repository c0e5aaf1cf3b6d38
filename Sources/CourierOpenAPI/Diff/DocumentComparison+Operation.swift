import CourierPrimitives
import Foundation

extension DocumentComparison {
    /// The security schemes a requirement list names, each as `type:scheme` or `apiKey:in:name`,
    /// one set per alternative; nil when the operation asks for none.
    private func requirements(_ operation: JSONValue, in document: ReferencedDocument) -> [Set<String>]? {
        guard case .array(let alternatives)? = operation["security"] ?? document.root["security"],
            !alternatives.isEmpty
        else { return nil }
        var result: [Set<String>] = []
        for alternative in alternatives {
            guard case .object(let names) = alternative else { continue }
            if names.isEmpty { return nil }  // an empty alternative makes security optional
            result.append(Set(names.keys.map { describeScheme($0, in: document) }))
        }
        return result
    }

    private func describeScheme(_ name: String, in document: ReferencedDocument) -> String {
        let pointer = PointerText.join("/components/securitySchemes", name)
        guard let raw = document.value(at: pointer),
            let scheme = try? document.resolve(raw, at: pointer).value,
            let type = scheme["type"]?.stringValue
        else { return name }
        switch type {
        case "http": return "http:" + (scheme["scheme"]?.stringValue?.lowercased() ?? "")
        case "apiKey":
            return "apiKey:" + (scheme["in"]?.stringValue ?? "") + ":" + (scheme["name"]?.stringValue ?? "")
        // Their access tokens are sent as bearer tokens (RFC 6750).
        case "oauth2", "openIdConnect": return "http:bearer"
        default: return type
        }
    }

    mutating func compareSecurity(
        _ ours: JSONValue, _ ourPointer: String, _ theirs: JSONValue, _ theirPointer: String
    ) {
        let sent =
            requirements(ours, in: client).map { $0.reduce(into: Set<String>()) { $0.formUnion($1) } } ?? []
        guard let needed = requirements(theirs, in: provider) else {
            if !sent.isEmpty {
                note(
                    "api-security-removed", "the operation no longer asks for credentials",
                    ourPointer + "/security", nil, harmless: true)
            }
            return
        }
        guard !needed.contains(where: { $0.isSubset(of: sent) }) else { return }
        let wanted = needed.map { $0.sorted().joined(separator: " and ") }.joined(separator: ", or ")
        let pointer = theirs["security"] != nil ? theirPointer + "/security" : "/security"
        note(
            "api-security-added",
            sent.isEmpty
                ? "the operation now asks for credentials: \(wanted)"
                : "the operation now asks for \(wanted), not \(sent.sorted().joined(separator: ", "))",
            ourPointer, pointer)
    }

    /// The operation's parameters by key: a path parameter by its place in the template, another by
    /// where it goes and its name (a header's in lowercase). The headers OpenAPI ignores are left out.
    private func parameters(_ found: Found, in document: ReferencedDocument) throws(OpenAPIDocumentError)
        -> [String: (value: JSONValue, pointer: String)]
    {
        var list = found.pathParameters
        if case .array(let own)? = found.value["parameters"] {
            for (index, parameter) in own.enumerated() {
                list.append((parameter, PointerText.join(found.pointer, "parameters", String(index))))
            }
        }
        let templateNames = found.path.split(separator: "/").compactMap { segment -> String? in
            segment.first == "{" && segment.last == "}" ? String(segment.dropFirst().dropLast()) : nil
        }
        var result: [String: (JSONValue, String)] = [:]
        for (raw, rawPointer) in list {
            let (parameter, pointer) = try document.resolve(raw, at: rawPointer)
            guard let name = parameter["name"]?.stringValue, let location = parameter["in"]?.stringValue
            else {
                throw .at(pointer, "a parameter needs 'name' and 'in'")
            }
            // OpenAPI: a header parameter named Accept, Content-Type or Authorization "SHALL be ignored"
            // (the media types and the security schemes say them).
            if location == "header", ["accept", "content-type", "authorization"].contains(name.lowercased()) {
                continue
            }
            let key: String
            if location == "path", let index = templateNames.firstIndex(of: name) {
                key = "path:#\(index)"
            } else {
                key = location + ":" + (location == "header" ? name.lowercased() : name)
            }
            result[key] = (parameter, pointer)  // the operation's own come last and win
        }
        return result
    }

    /// A parameter's schema and its pointer: `schema`, or the schema of its one `content` entry.
    private func parameterSchema(_ parameter: JSONValue, _ pointer: String) -> (JSONValue, String) {
        if let schema = parameter["schema"] { return (schema, pointer + "/schema") }
        if case .object(let content)? = parameter["content"], let (type, media) = content.first,
            let schema = media["schema"]
        {
            return (schema, PointerText.join(pointer, "content", type, "schema"))
        }
        return (.object([:]), pointer)
    }

    mutating func compareParameters(_ mine: Found, _ other: Found) throws(OpenAPIDocumentError) {
        let ours = try parameters(mine, in: client)
        let theirs = try parameters(other, in: provider)
        for key in ours.keys.sorted() {
            guard let (parameter, pointer) = ours[key] else { continue }
            let name = parameter["name"]?.stringValue ?? key
            let location = parameter["in"]?.stringValue ?? ""
            let label = "the \(location) parameter '\(name)'"
            guard let (their, theirPointer) = theirs[key] else {
                note(
                    "request-parameter-removed", "\(label) is gone: the provider no longer reads it", pointer,
                    nil)
                continue
            }
            let mineRequired = parameter["required"]?.boolValue ?? false
            let theirsRequired = their["required"]?.boolValue ?? false
            if theirsRequired, !mineRequired {
                note("request-parameter-became-required", "\(label) became required", pointer, theirPointer)
            } else if mineRequired, !theirsRequired {
                note(
                    "request-parameter-became-optional", "\(label) became optional", pointer, theirPointer,
                    harmless: true)
            }
            let (ourSchema, ourSchemaPointer) = parameterSchema(parameter, pointer)
            let (theirSchema, theirSchemaPointer) = parameterSchema(their, theirPointer)
            try compareSchema(
                ourSchema, ourSchemaPointer, theirSchema, theirSchemaPointer,
                Place(side: .request, level: .parameter, name: name, detail: " (\(location))"))
        }
        for key in theirs.keys.sorted() where ours[key] == nil {
            guard let (their, pointer) = theirs[key] else { continue }
            let label =
                "the \(their["in"]?.stringValue ?? "") parameter '\(their["name"]?.stringValue ?? key)'"
            if their["required"]?.boolValue == true {
                note("new-required-request-parameter", "\(label) is new and required", nil, pointer)
            } else {
                note(
                    "new-optional-request-parameter", "\(label) is new and optional", nil, pointer,
                    harmless: true)
            }
        }
    }

    /// The content entry of `content` for `mediaType`: the same type, or a range (`image/*`, `*/*`)
    /// that holds it.
    private func match(_ mediaType: String, in content: [String: JSONValue]) -> String? {
        let bare = { (type: String) in
            String(type.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
        }
        let wanted = bare(mediaType)
        if let exact = content.keys.first(where: { bare($0) == wanted }) { return exact }
        let major = wanted.prefix { $0 != "/" }
        return content.keys.first { bare($0) == "\(major)/*" } ?? content.keys.first { bare($0) == "*/*" }
    }

    mutating func compareRequestBody(
        _ ours: JSONValue, _ ourPointer: String, _ theirs: JSONValue, _ theirPointer: String
    )
        throws(OpenAPIDocumentError)
    {
        let mine = try ours["requestBody"].map { body throws(OpenAPIDocumentError) in
            try client.resolve(body, at: ourPointer + "/requestBody")
        }
        let their = try theirs["requestBody"].map { body throws(OpenAPIDocumentError) in
            try provider.resolve(body, at: theirPointer + "/requestBody")
        }
        guard let their else { return }
        guard let mine else {
            if their.value["required"]?.boolValue == true {
                note(
                    "added-required-request-body", "the operation now requires a request body", ourPointer,
                    their.pointer)
            }
            return
        }
        guard case .object(let ourContent)? = mine.value["content"] else { return }
        let theirContent: [String: JSONValue]
        if case .object(let content)? = their.value["content"] {
            theirContent = content
        } else {
            theirContent = [:]
        }
        var matched: Set<String> = []
        for type in ourContent.keys.sorted() {
            let pointer = PointerText.join(mine.pointer, "content", type)
            guard let theirType = match(type, in: theirContent) else {
                note(
                    "request-body-media-type-removed", "the request body can no longer be sent as \(type)",
                    pointer, PointerText.join(their.pointer, "content"))
                continue
            }
            matched.insert(theirType)
            guard let ourSchema = ourContent[type]?["schema"],
                let theirSchema = theirContent[theirType]?["schema"]
            else { continue }
            try compareSchema(
                ourSchema, pointer + "/schema", theirSchema,
                PointerText.join(their.pointer, "content", theirType, "schema"),
                Place(
                    side: .request, level: .body, name: "",
                    detail: type == "application/json" ? "" : " (\(type))"))
        }
        for type in theirContent.keys.sorted() where !matched.contains(type) {
            note(
                "request-body-media-type-added", "the request body may now also be sent as \(type)", nil,
                PointerText.join(their.pointer, "content", type), harmless: true)
        }
    }

    mutating func compareResponses(
        _ ours: JSONValue, _ ourPointer: String, _ theirs: JSONValue, _ theirPointer: String
    )
        throws(OpenAPIDocumentError)
    {
        guard case .object(let mine)? = ours["responses"] else { return }
        let their: [String: JSONValue]
        if case .object(let responses)? = theirs["responses"] { their = responses } else { their = [:] }
        var covered: Set<String> = []
        for status in mine.keys.sorted() {
            guard let raw = mine[status] else { continue }
            let (response, pointer) = try client.resolve(
                raw, at: PointerText.join(ourPointer, "responses", status))
            let range = String(status.prefix(1)) + "XX"
            guard
                let theirStatus = [status, range, range.lowercased(), "default"].first(where: {
                    their[$0] != nil
                }),
                let theirRaw = their[theirStatus]
            else {
                let success = status.hasPrefix("2")
                note(
                    success ? "response-success-status-removed" : "response-non-success-status-removed",
                    "the status \(status) is gone", pointer, PointerText.join(theirPointer, "responses"))
                continue
            }
            covered.insert(theirStatus)
            let (theirResponse, theirResponsePointer) = try provider.resolve(
                theirRaw, at: PointerText.join(theirPointer, "responses", theirStatus))
            guard case .object(let ourContent)? = response["content"] else { continue }
            let theirContent: [String: JSONValue]
            if case .object(let content)? = theirResponse["content"] {
                theirContent = content
            } else {
                theirContent = [:]
            }
            for type in ourContent.keys.sorted() {
                let contentPointer = PointerText.join(pointer, "content", type)
                guard let theirType = match(type, in: theirContent) else {
                    note(
                        "response-mediatype-removed", "the status \(status) no longer answers \(type)",
                        contentPointer, theirResponsePointer)
                    continue
                }
                guard let ourSchema = ourContent[type]?["schema"],
                    let theirSchema = theirContent[theirType]?["schema"]
                else { continue }
                try compareSchema(
                    ourSchema, contentPointer + "/schema", theirSchema,
                    PointerText.join(theirResponsePointer, "content", theirType, "schema"),
                    Place(side: .response, level: .body, name: "", detail: " for the status \(status)"))
            }
        }
        for status in their.keys.sorted() where !covered.contains(status) && mine[status] == nil {
            note(
                status.hasPrefix("2") ? "response-success-status-added" : "response-non-success-status-added",
                "the status \(status) is new", nil, PointerText.join(theirPointer, "responses", status),
                harmless: true)
        }
    }
}
