import CourierOpenAPI
import Foundation
import MockServer

/// Why a request is refused: the status, and each problem with the parameter or JSON path and the rule.
struct Refusal: Error {
    struct Problem {
        /// `path`, `query`, `header`, `cookie`, `body` or `security`.
        var location: String
        /// The parameter, header or security scheme at fault.
        var name: String?
        /// The JSON path inside the value (`$` for the whole value).
        var path: String?
        /// The rule broken: a schema keyword, `required`, `style`, `media-type`, `syntax`, `security`.
        var rule: String
        var message: String

        var json: JSONValue {
            var members: [String: JSONValue] = [
                "in": .string(location), "rule": .string(rule), "message": .string(message),
            ]
            if let name { members["name"] = .string(name) }
            if let path { members["path"] = .string(path) }
            return .object(members)
        }

        var sentence: String {
            let subject = name.map { "\(location) '\($0)'" } ?? location
            return "\(subject)\(path.map { $0 == "$" ? "" : " at \($0)" } ?? ""): \(message) (\(rule))"
        }
    }

    var status: Int
    var problems: [Problem]
    var headers: ServerHeaders = ServerHeaders()

    /// The body: the status, a message and each problem.
    var body: JSONValue {
        let error =
            switch status {
            case 401: "unauthorized"
            case 404: "not_found"
            case 415: "unsupported_media_type"
            case 422: "unprocessable_entity"
            default: "bad_request"
            }
        return .object([
            "error": .string(error), "status": .int(Int64(status)),
            "message": .string(problems.map(\.sentence).joined(separator: "; ")),
            "problems": .array(problems.map(\.json)),
        ])
    }

    var response: ServerResponse {
        var response = ServerResponse.json(body.serialized(pretty: true), status: status)
        for field in headers { response.headers.add(name: field.name, value: field.value) }
        return response
    }
}

/// Checks a request against its operation: security, then parameters, then the body.
struct RequestCheck {
    let document: OpenAPIDocument
    let validator: SchemaValidator
    let decoding: ParameterDecoding
    /// The credentials protected operations take; any of the right form when none is configured.
    var credentials: [MockCredential] = []

    init(document: OpenAPIDocument, credentials: [MockCredential] = []) {
        self.document = document
        self.credentials = credentials
        validator = SchemaValidator(document: document)
        decoding = ParameterDecoding(document: document)
    }

    func check(_ request: ServerRequest, _ operation: OpenAPIOperation, path: [String: String]) -> Refusal? {
        if let refusal = checkSecurity(request, operation) { return refusal }
        let problems = checkParameters(request, operation, path: path)
        if !problems.isEmpty { return Refusal(status: 400, problems: problems) }
        return checkBody(request, operation)
    }

    // MARK: Security

    func checkSecurity(_ request: ServerRequest, _ operation: OpenAPIOperation) -> Refusal? {
        guard !operation.security.isEmpty else { return nil }
        let schemes = document.root["components"]?["securitySchemes"]
        for requirement in operation.security
        where requirement.keys.allSatisfy({ name in
            let scheme = schemes?[name].map(document.resolve)
            return satisfied(request, scheme) && configured(request, scheme)
        }) {
            return nil
        }
        var challenges: [String] = []
        var names: [String] = []
        for requirement in operation.security {
            names.append(requirement.keys.sorted().joined(separator: " and "))
            for name in requirement.keys.sorted() {
                guard let scheme = schemes?[name].map(document.resolve) else { continue }
                let challenge: String? =
                    switch scheme["type"]?.stringValue {
                    case "http": (scheme["scheme"]?.stringValue ?? "").capitalized
                    case "oauth2", "openIdConnect": "Bearer"
                    default: nil
                    }
                if let challenge, !challenge.isEmpty, !challenges.contains(challenge) {
                    challenges.append(challenge)
                }
            }
        }
        // API keys have no registered scheme, but a 401 names at least one challenge (RFC 9110 §11.6.1).
        if challenges.isEmpty { challenges.append("ApiKey") }
        var headers = ServerHeaders()
        for challenge in challenges {
            headers.add(name: "WWW-Authenticate", value: "\(challenge) realm=\"mock\"")
        }
        let problem = Refusal.Problem(
            location: "security", name: nil, path: nil, rule: "security",
            message: "credentials required: "
                + names.map { $0.isEmpty ? "none" : $0 }.joined(separator: " or "))
        return Refusal(status: 401, problems: [problem], headers: headers)
    }

    func satisfied(_ request: ServerRequest, _ scheme: JSONValue?) -> Bool {
        guard let scheme else { return false }
        let authorization = request.headers["Authorization"]?.trimmingCharacters(in: .whitespaces) ?? ""
        func credentials(_ prefix: String) -> String? {
            guard authorization.lowercased().hasPrefix(prefix.lowercased() + " ") else { return nil }
            let value = authorization.dropFirst(prefix.count + 1).trimmingCharacters(in: .whitespaces)
            return value.isEmpty ? nil : value
        }
        switch scheme["type"]?.stringValue {
        case "http":
            let name = scheme["scheme"]?.stringValue ?? ""
            guard let value = credentials(name) else { return false }
            if name.lowercased() == "basic" {
                guard let decoded = Data(base64Encoded: value),
                    String(decoding: decoded, as: UTF8.self).contains(":")
                else { return false }
            }
            return true
        case "apiKey":
            guard let name = scheme["name"]?.stringValue else { return false }
            switch scheme["in"]?.stringValue {
            case "header": return request.headers[name] != nil
            case "query": return request.query.contains { $0.name == name }
            case "cookie": return request.cookies.contains { $0.name == name }
            default: return false
            }
        case "oauth2", "openIdConnect":
            return credentials("Bearer") != nil
        default:
            // mutualTLS: a plain-HTTP mock never sees a client certificate.
            return false
        }
    }

    // MARK: Parameters

    func checkParameters(_ request: ServerRequest, _ operation: OpenAPIOperation, path: [String: String])
        -> [Refusal.Problem]
    {
        var problems: [Refusal.Problem] = []
        let declaredQuery = Set(operation.parameters.filter { $0.location == .query }.map(\.name))
        for parameter in operation.parameters {
            let location = parameter.location.rawValue
            let value: JSONValue?
            do throws(ParameterDecoding.Malformed) {
                value = try read(parameter, request, path: path, declaredQuery: declaredQuery)
            } catch {
                problems.append(
                    Refusal.Problem(
                        location: location, name: parameter.name, path: "$", rule: "style",
                        message: error.message))
                continue
            }
            guard let value else {
                if parameter.required {
                    problems.append(
                        Refusal.Problem(
                            location: location, name: parameter.name, path: nil, rule: "required",
                            message: "required \(location) parameter is missing"))
                }
                continue
            }
            if case .string(let text) = value, text.isEmpty, parameter.location == .query,
                parameter.value["allowEmptyValue"]?.boolValue == true
            {
                continue
            }
            guard let schema = parameter.schema else { continue }
            for violation in validator.validate(value, against: schema, direction: .request) {
                problems.append(
                    Refusal.Problem(
                        location: location, name: parameter.name, path: violation.path, rule: violation.rule,
                        message: violation.message))
            }
        }
        return problems
    }

    func read(
        _ parameter: OpenAPIParameter, _ request: ServerRequest, path: [String: String],
        declaredQuery: Set<String>
    ) throws(ParameterDecoding.Malformed) -> JSONValue? {
        switch parameter.location {
        case .path:
            guard let raw = path[parameter.name] else { return nil }
            if parameter.contentType != nil {
                return try decoding.content(parameter, raw.removingPercentEncoding ?? raw)
            }
            return try decoding.path(parameter, raw: raw)
        case .query:
            if parameter.contentType != nil {
                guard let text = request.queryValue(parameter.name) else { return nil }
                return try decoding.content(parameter, text)
            }
            return try decoding.query(parameter, request.query, declared: declaredQuery)
        case .header:
            let values = request.headers.values(for: parameter.name)
            guard !values.isEmpty else { return nil }
            let text = values.joined(separator: ",")
            if parameter.contentType != nil { return try decoding.content(parameter, text) }
            return try decoding.simple(parameter, text, percentEncoded: false)
        case .cookie:
            guard let text = request.cookies.first(where: { $0.name == parameter.name })?.value else {
                return nil
            }
            if parameter.contentType != nil {
                return try decoding.content(parameter, text.removingPercentEncoding ?? text)
            }
            return try decoding.simple(parameter, text, percentEncoded: true)
        }
    }

    // MARK: Body

    func checkBody(_ request: ServerRequest, _ operation: OpenAPIOperation) -> Refusal? {
        guard let requestBody = operation.requestBody else { return nil }
        // A request that names its body's media type sends a body, even of no bytes: an empty file
        // upload is a file, and an empty form (`application/x-www-form-urlencoded`) is {}.
        let hasBody =
            request.bodyFile != nil || !request.body.isEmpty || request.headers["Content-Type"] != nil
        var content: [String: JSONValue] = [:]
        if case .object(let media) = requestBody["content"] ?? .null { content = media }
        guard hasBody else {
            guard requestBody["required"]?.boolValue == true else { return nil }
            return Refusal(
                status: 400,
                problems: [
                    Refusal.Problem(
                        location: "body", name: nil, path: nil, rule: "required",
                        message: "a request body is required")
                ])
        }
        let declared = content.keys.sorted()
        guard let contentType = request.headers["Content-Type"],
            let media = MediaTypes.declared(for: contentType, in: declared)
        else {
            let given = request.headers["Content-Type"].map { "'\($0)'" } ?? "no Content-Type"
            return Refusal(
                status: 415,
                problems: [
                    Refusal.Problem(
                        location: "body", name: "Content-Type", path: nil, rule: "media-type",
                        message: "\(given) is not one of \(declared.joined(separator: ", "))")
                ])
        }
        guard let schema = content[media]?["schema"] else { return nil }
        let essence = MediaTypes.essence(contentType)
        let value: JSONValue
        if MediaTypes.isJSON(essence) && essence != "*/*" && essence != "application/*" {
            // Parsed once for the gate, the answer and any stub's pattern (`ServerRequest.bodyJSON`).
            switch request.bodyJSON {
            case .success(let parsed):
                value = parsed
            case .failure(.unreadable):
                return Refusal(
                    status: 400,
                    problems: [
                        Refusal.Problem(
                            location: "body", name: nil, path: nil, rule: "syntax",
                            message: "the body could not be read")
                    ])
            case .failure(let failure):
                return Refusal(
                    status: 400,
                    problems: [
                        Refusal.Problem(
                            location: "body", name: nil, path: "$", rule: "syntax",
                            message: failure.description)
                    ])
            }
            return refusal(value, schema)
        }
        // A binary body is taken as sent, unread: its schema describes no structure to check, and an
        // upload may be large and stay in its file.
        guard Self.readsBody(essence) else { return nil }
        let data: Data
        do {
            data = try request.bodyData()
        } catch {
            return Refusal(
                status: 400,
                problems: [
                    Refusal.Problem(
                        location: "body", name: nil, path: nil, rule: "syntax",
                        message: "the body could not be read")
                ])
        }
        switch essence {
        case "application/x-www-form-urlencoded":
            let pairs = ServerRequest(method: "POST", target: "/?" + String(decoding: data, as: UTF8.self))
                .query
            value = form(pairs.map { ($0.name, Data($0.value.utf8), nil) }, schema)
        case "multipart/form-data":
            guard let parts = MultipartPart.parse(contentType: contentType, body: data) else {
                return Refusal(
                    status: 400,
                    problems: [
                        Refusal.Problem(
                            location: "body", name: nil, path: "$", rule: "syntax",
                            message: "not a multipart/form-data body with the boundary of its Content-Type")
                    ])
            }
            value = form(parts.compactMap(Self.field), schema)
        case let type where type.hasSuffix("/xml") || type.hasSuffix("+xml"):
            guard let root = XMLBody.parse(data) else {
                return Refusal(
                    status: 400,
                    problems: [
                        Refusal.Problem(
                            location: "body", name: nil, path: "$", rule: "syntax",
                            message: "not well-formed XML")
                    ])
            }
            value = XMLBody(decoding: decoding).value(root, schema)
        case let type where type.hasPrefix("text/"):
            value = .string(String(decoding: data, as: UTF8.self))
        default:
            // Binary bodies are taken as sent: their schemas describe no structure to check.
            return nil
        }
        return refusal(value, schema)
    }

    /// Whether a body of this media type is read to be checked: a form, XML or text; not a binary one.
    static func readsBody(_ essence: String) -> Bool {
        essence == "application/x-www-form-urlencoded" || essence == "multipart/form-data"
            || essence.hasSuffix("/xml") || essence.hasSuffix("+xml") || essence.hasPrefix("text/")
    }

    /// The 422 for a body value that breaks its schema, each violation a problem; nil when it holds.
    func refusal(_ value: JSONValue, _ schema: JSONValue) -> Refusal? {
        let violations = validator.validate(value, against: schema, direction: .request)
        guard !violations.isEmpty else { return nil }
        return Refusal(
            status: 422,
            problems: violations.map {
                Refusal.Problem(
                    location: "body", name: nil, path: $0.path, rule: $0.rule, message: $0.message)
            })
    }

    /// A form field: its name, content and content type.
    static func field(_ part: MultipartPart) -> (String, Data, String?)? {
        guard let disposition = part.headers["Content-Disposition"] else { return nil }
        for piece in disposition.split(separator: ";") {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            guard trimmed.lowercased().hasPrefix("name=") else { continue }
            let name = trimmed.dropFirst(5).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return (name, part.body, part.headers["Content-Type"])
        }
        return nil
    }

    /// Form fields as an object, each typed by its property's schema (arrays gather repeated fields).
    func form(_ fields: [(String, Data, String?)], _ schema: JSONValue) -> JSONValue {
        let outline = decoding.outline(schema)
        var properties: [String: JSONValue] = [:]
        if case .object(let named) = outline["properties"] ?? .null { properties = named }
        var members: [String: JSONValue] = [:]
        for (name, data, type) in fields {
            let property = properties[name]
            let text = String(decoding: data, as: UTF8.self)
            let item: JSONValue
            if let type, MediaTypes.isJSON(type), let parsed = try? JSONValue.parse(data) {
                item = parsed
            } else if case .array(let itemSchema) = decoding.shape(property) {
                item = decoding.coerce(text, itemSchema)
                if case .array(let existing) = members[name] ?? .array([]) {
                    members[name] = .array(existing + [item])
                }
                continue
            } else {
                item = decoding.coerce(text, property)
            }
            members[name] = item
        }
        return .object(members)
    }
}
