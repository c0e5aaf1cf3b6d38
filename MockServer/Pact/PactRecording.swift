import Courier
import CourierContract
import CourierContractModel
import CourierPact
import CourierPrimitives
import Foundation
import MockServer

/// A request as a pact records it: the method, path, query, the header fields a provider needs
/// (content type, accept, authorization, the declared header parameters), the body, and rules
/// from the declared parameters and body schema.
struct PactRequestRecording {
    let request: PactRequest

    init(request: ServerRequest, operation: APIOperation?) {
        let declared = Set(
            (operation?.parameters ?? []).filter { $0.location == .header }.map { $0.name.lowercased() })
        let kept: Set<String> = ["content-type", "accept", "authorization"]
        var headers = PactHeaders()
        for (name, value) in request.headers
        where kept.contains(name.lowercased()) || declared.contains(name.lowercased()) {
            headers.add(name, values: [value])
        }
        var rules = MatchingRules()
        var body: PactBody?
        let data = (try? request.bodyData()) ?? request.body
        if !data.isEmpty {
            body = PactBody(data: data, contentType: request.headers["Content-Type"])
            if case .json(let schema)? = operation?.body, case .json(let value)? = body?.content {
                rules[.body] = MatchingRules.bodyRules(for: schema, value: value)
            }
        }
        if let operation {
            if let regex = Self.pathRegex(operation) { rules[.path] = ["$": RuleList([.regex(regex)])] }
            for parameter in operation.parameters where parameter.location == .query {
                if let rule = MatchingRules.textRule(for: parameter.schema),
                    request.query.contains(where: { $0.name == parameter.name })
                {
                    rules[.query][parameter.name] = RuleList([rule])
                }
            }
        }
        var query: [(name: String, values: [String])] = []
        for (name, value) in request.query {
            if let index = query.firstIndex(where: { $0.name == name }) {
                query[index].values.append(value)
            } else {
                query.append((name, [value]))
            }
        }
        self.request = PactRequest(
            method: request.method, path: request.decodedPath, query: query, headers: headers, body: body,
            matchingRules: rules)
    }

    /// A regex for the operation's path, each `{name}` by its parameter's rule; nil without parameters.
    static func pathRegex(_ operation: APIOperation) -> String? {
        guard operation.path.contains("{") else { return nil }
        let schemas = Dictionary(
            operation.parameters.filter { $0.location == .path }.map { ($0.name, $0.schema) },
            uniquingKeysWith: { a, _ in a })
        var pattern = ""
        for segment in operation.path.split(separator: "/") {
            pattern += "/"
            if segment.hasPrefix("{"), segment.hasSuffix("}") {
                let name = String(segment.dropFirst().dropLast())
                if let schema = schemas[name], case .regex(let regex)? = MatchingRules.textRule(for: schema) {
                    pattern += "(?:\(regex))"
                } else {
                    pattern += "[^/]+"
                }
            } else {
                pattern += NSRegularExpression.escapedPattern(for: String(segment))
            }
        }
        return pattern
    }
}

/// A response as a pact records it: the status, the content type (matched by its media type), the
/// body, and rules from the declared schema of that status; no body for a declared error status
/// whose body the declaration leaves open.
struct PactResponseRecording {
    let response: PactResponse

    init(response: ServerResponse, operation: APIOperation?) {
        var headers = PactHeaders()
        var rules = MatchingRules()
        let contentType = response.headers["Content-Type"]
        if let contentType {
            headers.add("Content-Type", values: [contentType])
            if let media = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) {
                rules[.header]["Content-Type"] = RuleList([
                    .regex(NSRegularExpression.escapedPattern(for: media) + "(\\s*;.*)?")
                ])
            }
        }
        var body: PactBody?
        let spec = operation?.responses.first { $0.status == response.status }
        // An error status the declaration lists without a body schema (an API with no error model)
        // leaves the body open: what the mock said is its own wording, not the provider's, so
        // the pact holds the status and the content type alone (Pact compares no body then).
        let bodyIsOpen = response.status >= 400 && spec != nil && spec?.schema == nil
        if case .data(let data) = response.body, !data.isEmpty, !bodyIsOpen {
            body = PactBody(data: data, contentType: contentType)
            if let schema = spec?.schema, case .json(let value)? = body?.content {
                rules[.body] = MatchingRules.bodyRules(for: schema, value: value)
            }
        }
        self.response = PactResponse(
            status: response.status, headers: headers, body: body, matchingRules: rules)
    }
}
