import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import Foundation
import MockServer

/// One request of the parity set: what it tries, and the request.
struct ParityRequest: CustomStringConvertible {
    var name: String
    var request: ServerRequest

    var description: String { "\(name): \(request.method) \(request.target)" }
}

/// Good and bad requests made from an API's samples and declarations: each sample, then each way its
/// parameters, body, token, method and path can break the declaration.
struct ParityRequests {
    let samples: [any EndpointDescribing]

    static let base = URL(string: "http://mock.test")!  // allowed: a literal URL
    static let token = "Bearer parity-token"
    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]

    func all() -> [ParityRequest] {
        var requests: [ParityRequest] = []
        for sample in samples {
            guard let transport = try? sample.makeRequest(baseURL: Self.base) else { continue }
            requests += Variations(operation: sample.operation, sample: Self.request(transport)).all()
        }
        requests.append(
            ParityRequest(name: "no route", request: ServerRequest(method: "GET", target: "/zz/nowhere")))
        return requests
    }

    /// A transport request as the mock server receives it, with the token when the operation needs one.
    static func request(_ transport: TransportRequest) -> ServerRequest {
        let components = URLComponents(url: transport.url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if let query = components?.percentEncodedQuery { target += "?" + query }
        var headers = ServerHeaders()
        for field in transport.headers { headers.add(name: field.name, value: field.value) }
        let body: Data
        switch transport.body {
        case .data(let data): body = data
        default: body = Data()
        }
        return ServerRequest(method: transport.method.rawValue, target: target, headers: headers, body: body)
    }
}

/// The variations of one operation's sample.
struct Variations {
    let operation: APIOperation
    let sample: ServerRequest

    private var authorized: ServerRequest {
        var request = sample
        if operation.requiresAuth { request.headers.add(name: "Authorization", value: ParityRequests.token) }
        return request
    }

    func all() -> [ParityRequest] {
        var out = [ParityRequest(name: "\(operation.id) sample", request: authorized)]
        if operation.requiresAuth {
            out.append(ParityRequest(name: "\(operation.id) no token", request: sample))
        }
        out += parameters()
        out += bodies()
        out += otherMethods()
        return out
    }

    // MARK: Parameters

    private func parameters() -> [ParityRequest] {
        var out: [ParityRequest] = []
        for parameter in operation.parameters {
            let name = "\(operation.id) \(parameter.location.rawValue) \(parameter.name)"
            switch parameter.location {
            case .query:
                out.append(ParityRequest(name: "\(name) absent", request: query(parameter.name, nil)))
                for bad in Self.badTexts(parameter.schema) {
                    out.append(ParityRequest(name: "\(name)=\(bad)", request: query(parameter.name, bad)))
                }
            case .header:
                var absent = authorized
                absent.headers.remove(name: parameter.name)
                out.append(ParityRequest(name: "\(name) absent", request: absent))
                for bad in Self.badTexts(parameter.schema) {
                    var request = authorized
                    request.headers.remove(name: parameter.name)
                    request.headers.add(name: parameter.name, value: bad)
                    out.append(ParityRequest(name: "\(name)=\(bad)", request: request))
                }
            case .path:
                for bad in Self.badTexts(parameter.schema) {
                    guard let request = path(parameter.name, bad) else { continue }
                    out.append(ParityRequest(name: "\(name)=\(bad)", request: request))
                }
            }
        }
        return out
    }

    /// Texts a parameter of `schema` may refuse: of another type, out of bounds, breaking a string rule.
    static func badTexts(_ schema: Schema) -> [String] {
        switch schema.unwrapped {
        case .integer(let minimum, let maximum):
            var texts = ["abc", "1.0", "1.5"]
            if let minimum { texts.append(String(minimum - 1)) }
            if let maximum { texts.append(String(maximum + 1)) }
            return texts
        case .number: return ["abc"]
        case .boolean: return ["maybe", "1"]
        case .enumeration: return ["zz-undeclared"]
        case .string(let rules): return badStrings(rules)
        default: return []
        }
    }

    /// Strings that break each of `rules`.
    static func badStrings(_ rules: Schema.StringRules) -> [String] {
        var texts: [String] = []
        let start = rules.prefix ?? ""
        if let maxLength = rules.maxLength {
            texts.append(start + String(repeating: "a", count: maxLength + 1))
        }
        if let minLength = rules.minLength, minLength > 1 {
            texts.append(String(start.prefix(minLength - 1)))
        }
        if let prefix = rules.prefix, !prefix.isEmpty {
            texts.append("zz" + String(repeating: "1", count: 3))
        }
        if rules.noLeadingDot { texts.append(start + ".hidden") }
        if let allowed = rules.allowed, !allowed.contains("~") { texts.append(start + "a~b") }
        if rules.format != nil { texts.append("not a \(rules.format ?? "")") }
        return texts
    }

    private func query(_ name: String, _ value: String?) -> ServerRequest {
        var request = authorized
        var items = URLComponents(string: request.target)?.queryItems ?? []
        items.removeAll { $0.name == name }
        if let value { items.append(URLQueryItem(name: name, value: value)) }
        var components = URLComponents()
        components.percentEncodedPath = request.path
        components.queryItems = items.isEmpty ? nil : items
        request = ServerRequest(
            method: request.method, target: components.string ?? request.target, headers: request.headers,
            body: request.body)
        return request
    }

    private func path(_ name: String, _ value: String) -> ServerRequest? {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        guard let encoded = value.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
        let sampleSegments = sample.path.split(separator: "/", omittingEmptySubsequences: false)
        let template = operation.path.split(separator: "/", omittingEmptySubsequences: false)
        guard sampleSegments.count == template.count else { return nil }
        let segments = zip(template, sampleSegments).map { part, segment in
            part == "{\(name)}" ? encoded : String(segment)
        }
        let query = sample.target.firstIndex(of: "?").map { String(sample.target[$0...]) } ?? ""
        let request = authorized
        return ServerRequest(
            method: request.method, target: segments.joined(separator: "/") + query, headers: request.headers,
            body: request.body)
    }

    // MARK: Bodies

    private func bodies() -> [ParityRequest] {
        guard case .json(let schema) = operation.body else { return [] }
        var out: [ParityRequest] = []
        let name = "\(operation.id) body"
        out.append(ParityRequest(name: "\(name) absent", request: body(nil)))
        out.append(ParityRequest(name: "\(name) not JSON", request: body(Data(#"{"a":"#.utf8))))
        out.append(ParityRequest(name: "\(name) wrong type", request: body(Data("[]".utf8))))
        var text = authorized
        text.headers.remove(name: "Content-Type")
        text.headers.add(name: "Content-Type", value: "text/plain")
        out.append(ParityRequest(name: "\(name) as text/plain", request: text))
        guard case .object(let properties, let required) = schema.unwrapped,
            case .object(let members) = (try? JSONValue.parse(sample.body)) ?? .null
        else { return out }
        for property in properties {
            let key = "\(name).\(property.name)"
            var without = members
            without[property.name] = nil
            out.append(
                ParityRequest(
                    name: "\(key) absent\(required.contains(property.name) ? " (required)" : "")",
                    request: body(JSONValue.object(without).serialized())))
            for (label, value) in Self.badValues(property.schema) {
                var changed = members
                changed[property.name] = value
                out.append(
                    ParityRequest(
                        name: "\(key)=\(label)", request: body(JSONValue.object(changed).serialized())))
            }
        }
        return out
    }

    /// JSON values a property of `schema` may refuse, with a label.
    static func badValues(_ schema: Schema) -> [(String, JSONValue)] {
        var values: [(String, JSONValue)] = [("null", .null)]
        switch schema.unwrapped {
        case .integer(let minimum, let maximum):
            values += [("1.0", .double(1)), ("1.5", .double(1.5)), ("\"1\"", .string("1"))]
            if let minimum { values.append(("min-1", .int(Int64(minimum) - 1))) }
            if let maximum { values.append(("max+1", .int(Int64(maximum) + 1))) }
        case .number, .boolean, .enumeration:
            values += [("\"x\"", .string("x")), ("[]", .array([]))]
            if case .enumeration = schema.unwrapped {
                values.append(("undeclared", .string("zz-undeclared")))
            }
        case .string(let rules):
            values.append(("12", .int(12)))
            values += badStrings(rules).map { ($0, .string($0)) }
        case .array:
            values += [("{}", .object([:])), ("[{}]", .array([.object(["zz": .int(1)])]))]
        case .object, .map:
            values += [("[]", .array([])), ("\"x\"", .string("x"))]
        default:
            break
        }
        return values
    }

    private func body(_ data: Data?) -> ServerRequest {
        var request = authorized
        request.body = data ?? Data()
        if data == nil { request.headers.remove(name: "Content-Type") }
        return request
    }

    // MARK: Routing

    /// The sample's path with every other method: 405, or another operation that the path fits.
    private func otherMethods() -> [ParityRequest] {
        ParityRequests.methods.filter { $0 != operation.method.rawValue }.map { method in
            var request = authorized
            request.method = method
            return ParityRequest(name: "\(operation.id) path with \(method)", request: request)
        }
    }
}
