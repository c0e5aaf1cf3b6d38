import Courier
import CourierOpenAPI
import CourierPrimitives
import Foundation

/// One request of a document's operation as values (parameters as text, the body as bytes), made from
/// the document's examples or its schemas, which `DocumentCases` varies and sends.
struct SampleRequest {
    /// Where the credential goes, by the operation's security scheme.
    enum Credential {
        case authorization(scheme: String)
        case header(String)
        case query(String)
        case cookie(String)
    }

    let operation: OpenAPIOperation
    var path: [String: String] = [:]
    var query: [(name: String, value: String)] = []
    var headers: [(name: String, value: String)] = []
    var cookies: [(name: String, value: String)] = []
    var body: Data?
    var contentType: String?
    var bodySchema: JSONValue?
    /// Where the credential goes; empty when the operation needs none (or allows anonymous calls).
    var credentials: [Credential] = []

    var needsCredentials: Bool { !credentials.isEmpty }

    /// The operation's sample.
    /// - Throws: `SchemaGenerationError` when a schema has no value to offer.
    init(cases: DocumentCases) throws {
        operation = cases.operation
        for parameter in operation.parameters {
            let example = DocumentCases.example(parameter.value) ?? parameter.schema?["example"]
            guard parameter.required || example != nil else { continue }
            let value = try cases.value(
                parameter.schema, example: example, salt: "\(parameter.location.rawValue) \(parameter.name)")
            switch parameter.location {
            case .path: path[parameter.name] = Self.text(value)
            case .query:
                if case .array(let items) = value, parameter.explode {
                    query += items.map { (parameter.name, Self.text($0)) }
                } else {
                    query.append((parameter.name, Self.text(value)))
                }
            case .header: headers.append((parameter.name, Self.text(value)))
            case .cookie: cookies.append((parameter.name, Self.text(value)))
            }
        }
        try makeBody(cases)
        credentials = Self.credentials(cases.document, operation)
    }

    private mutating func makeBody(_ cases: DocumentCases) throws {
        guard let requestBody = operation.requestBody,
            case .object(let content) = requestBody["content"] ?? .null, !content.isEmpty
        else { return }
        let types = content.keys.sorted()
        let json = types.first {
            DocumentResponseCheck.essence($0) == "application/json" || $0.hasSuffix("+json")
        }
        let form = types.first { DocumentResponseCheck.essence($0) == "application/x-www-form-urlencoded" }
        if let type = json ?? form, let media = content[type] {
            let value = try cases.value(media["schema"], example: DocumentCases.example(media), salt: "body")
            contentType = type
            bodySchema = media["schema"]
            if type == json {
                body = value.serialized()
            } else if case .object(let members) = value {
                var components = URLComponents()
                components.queryItems = members.keys.sorted().map {
                    URLQueryItem(name: $0, value: Self.text(members[$0] ?? .null))
                }
                body = Data((components.percentEncodedQuery ?? "").utf8)
            }
        } else if requestBody["required"]?.boolValue == true, let type = types.first {
            contentType = type.contains("*") ? "application/octet-stream" : type
            body = Data("sample".utf8)
        }
    }

    /// Where the first security requirement wants the credential; none when one requirement is empty.
    static func credentials(_ document: OpenAPIDocument, _ operation: OpenAPIOperation) -> [Credential] {
        guard let requirement = operation.security.first, !operation.security.contains(where: \.isEmpty)
        else {
            return []
        }
        let schemes = document.root["components"]?["securitySchemes"]
        return requirement.keys.sorted().compactMap { name in
            guard let scheme = schemes?[name].map(document.resolve) else { return nil }
            switch scheme["type"]?.stringValue {
            case "http":
                return .authorization(scheme: (scheme["scheme"]?.stringValue ?? "bearer").capitalized)
            case "oauth2", "openIdConnect": return .authorization(scheme: "Bearer")
            case "apiKey":
                guard let key = scheme["name"]?.stringValue else { return nil }
                switch scheme["in"]?.stringValue {
                case "header": return .header(key)
                case "query": return .query(key)
                case "cookie": return .cookie(key)
                default: return nil
                }
            default: return nil
            }
        }
    }

    /// A parameter value as text in the simple style: arrays and objects comma-separated.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .double(let number):
            number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .string(let text): text
        case .array(let items): items.map(text).joined(separator: ",")
        case .object(let members):
            members.keys.sorted().flatMap { [$0, text(members[$0] ?? .null)] }.joined(separator: ",")
        }
    }

    /// The request against `baseURL`, with `token` where the security scheme wants it.
    func request(baseURL: URL, token: String?) -> TransportRequest? {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#")
        var filled = operation.path
        for (name, text) in path {
            guard let encoded = text.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
            filled = filled.replacingOccurrences(of: "{\(name)}", with: encoded)
        }
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard var components = URLComponents(string: base + filled) else { return nil }
        var items = query.map { URLQueryItem(name: $0.name, value: $0.value) }
        var fields = HTTPHeaders()
        var cookies = self.cookies
        for (name, value) in headers { fields.add(name: name, value: value) }
        if let token {
            for credential in credentials {
                switch credential {
                case .authorization(let scheme):
                    let value =
                        scheme == "Basic" && token.contains(":")
                        ? Data(token.utf8).base64EncodedString() : token
                    fields.replaceOrAdd(name: "Authorization", value: "\(scheme) \(value)")
                case .header(let name): fields.replaceOrAdd(name: name, value: token)
                case .query(let name): items.append(URLQueryItem(name: name, value: token))
                case .cookie(let name): cookies.append((name, token))
                }
            }
        }
        if !cookies.isEmpty {
            fields.add(
                name: "Cookie", value: cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; "))
        }
        components.queryItems = items.isEmpty ? nil : items
        guard let url = components.url else { return nil }
        var request = TransportRequest(
            method: HTTPMethod(rawValue: operation.method), url: url, headers: fields)
        if let body {
            request.body = .data(body)
            if let contentType { request.headers.replaceOrAdd(name: "Content-Type", value: contentType) }
        }
        return request
    }

    /// This request with every path parameter set to a value its schema accepts that is unlikely to
    /// name anything; nil when the operation has no path parameter or no such value is found.
    func withUnknownIDs(_ validator: SchemaValidator) -> SampleRequest? {
        let parameters = operation.parameters.filter { $0.location == .path }
        guard !parameters.isEmpty else { return nil }
        var copy = self
        for parameter in parameters {
            let schema = validator.root.resolve(parameter.schema ?? .object([:]))
            let candidates: [JSONValue] = [
                .string("zzunknown0id000000"), .string("00000000-0000-4000-8000-00000000dead"),
                .int(999_999_999), .int(Int64(schema["maximum"]?.intValue ?? 999_999_999)),
            ]
            guard
                let unknown = candidates.first(where: {
                    validator.isValid($0, against: schema, direction: .request)
                        && Self.text($0) != path[parameter.name]
                })
            else { return nil }
            copy.path[parameter.name] = Self.text(unknown)
        }
        return copy
    }

    /// This request with a JSON body its schema refuses (an array for an object, else an object); nil
    /// when the operation takes no JSON body or its schema accepts both.
    func withBadBody(_ validator: SchemaValidator) -> SampleRequest? {
        guard let schema = bodySchema, let contentType,
            DocumentResponseCheck.essence(contentType) == "application/json" || contentType.hasSuffix("+json")
        else { return nil }
        for bad: JSONValue in [.array([]), .object([:]), .string("x")]
        where !validator.isValid(bad, against: schema, direction: .request) {
            var copy = self
            copy.body = bad.serialized()
            return copy
        }
        return nil
    }

    /// This request with one bounded integer or enumerated query parameter out of its range; nil when
    /// there is none.
    func withBadParameter(_ document: OpenAPIDocument) -> SampleRequest? {
        for parameter in operation.parameters where parameter.location == .query {
            guard let schema = parameter.schema.map(document.resolve) else { continue }
            let bad: String
            if let maximum = schema["maximum"]?.intValue {
                bad = String(maximum + 1)
            } else if let minimum = schema["minimum"]?.intValue {
                bad = String(minimum - 1)
            } else if case .array(let values) = schema["enum"] ?? .null {
                bad = "not-" + (values.first.map(Self.text) ?? "declared")
            } else {
                continue
            }
            var copy = self
            copy.query.removeAll { $0.name == parameter.name }
            copy.query.append((parameter.name, bad))
            return copy
        }
        return nil
    }
}
