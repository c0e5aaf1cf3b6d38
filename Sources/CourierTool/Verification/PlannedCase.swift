import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import Foundation

/// One request `ProviderVerification` sends, and the statuses it expects.
struct PlannedCase {
    var name: String
    var request: TransportRequest
    var expected: Set<Int>
    var skipped: String?
    /// Whether the case holds only against a server that keeps data (an unknown id is unknown only to
    /// one that knows which ids exist).
    var needsData = false

    /// The sample call, then the cases made from the declaration.
    /// - Throws: what building the sample's request throws.
    static func all(for sample: any EndpointDescribing, baseURL: URL, token: String?) throws -> [PlannedCase]
    {
        let operation = sample.operation
        var base = try sample.makeRequest(baseURL: baseURL)
        if operation.requiresAuth, let token {
            base.headers.replaceOrAdd(name: "Authorization", value: "Bearer \(token)")
        }
        let success = operation.successStatuses
        // A generated variation of the sample is valid input, so it must not be refused as input
        // (400, 422); but against a server with data it may meet a declared answer about that data:
        // a repeated write may conflict (409), and made-up credentials in the body of an operation
        // that takes no token may be refused (401).
        let declared = Set(operation.errors.map(\.status))
        var variation = success
        if CaseRunner.unsafeMethods.contains(operation.method.rawValue), declared.contains(409) {
            variation.insert(409)
        }
        if !operation.requiresAuth, declared.contains(401) { variation.insert(401) }
        let needsToken =
            operation.requiresAuth && token == nil ? "needs a token: --token or COURIER_TOKEN" : nil
        var cases = [PlannedCase(name: "sample", request: base, expected: success, skipped: needsToken)]
        let edit = RequestEdit(operation: operation, request: base, baseURL: baseURL)

        for (name, bound) in [("minimum values", Bound.minimum), ("maximum values", .maximum)] {
            if let request = edit.withBoundaryValues(bound) {
                cases.append(
                    PlannedCase(name: name, request: request, expected: variation, skipped: needsToken))
            }
        }
        if let request = edit.withoutOptionals() {
            cases.append(
                PlannedCase(
                    name: "absent optionals", request: request, expected: variation, skipped: needsToken))
        }
        if operation.requiresAuth {
            var request = base
            request.headers.remove(name: "Authorization")
            cases.append(PlannedCase(name: "no token", request: request, expected: [401]))
        }
        if declared.contains(404), let request = edit.withUnknownIDs() {
            cases.append(
                PlannedCase(
                    name: "unknown id", request: request, expected: [404], skipped: needsToken,
                    needsData: true))
        }
        let refusals = declared.intersection([400, 422])
        if !refusals.isEmpty {
            if let request = edit.withBadBody() {
                cases.append(
                    PlannedCase(name: "bad body", request: request, expected: refusals, skipped: needsToken))
            }
            if let request = edit.withBadParameter() {
                cases.append(
                    PlannedCase(
                        name: "bad parameter", request: request, expected: refusals, skipped: needsToken))
            }
        }
        return cases
    }
}

enum Bound { case minimum, maximum }

/// Variations of a sample's request, each made from the operation's declaration.
struct RequestEdit {
    let operation: APIOperation
    let request: TransportRequest
    let baseURL: URL

    private var queryParameters: [APIOperation.Parameter] {
        operation.parameters.filter { $0.location == .query }
    }

    /// The sample's JSON body, when the operation takes one and the sample has one in memory.
    private var json: (schema: Schema, value: [String: JSONValue])? {
        guard case .json(let schema) = operation.body, case .data(let data) = request.body,
            case .object(let members) = try? JSONValue.parse(data)
        else { return nil }
        return (schema, members)
    }

    /// The request with each bounded integer query parameter, and each JSON body property with
    /// length rules, at its lower or upper bound; nil when nothing is bounded.
    func withBoundaryValues(_ bound: Bound) -> TransportRequest? {
        var changed = false
        var items = queryItems
        for parameter in queryParameters {
            guard case .integer(let minimum, let maximum) = parameter.schema.unwrapped,
                let value = bound == .minimum ? minimum : maximum
            else { continue }
            items.removeAll { $0.name == parameter.name }
            items.append(URLQueryItem(name: parameter.name, value: String(value)))
            changed = true
        }
        var copy = replacingQuery(items)
        if let (schema, members) = json, case .object(let properties, _) = schema.unwrapped {
            var body = members
            for property in properties {
                if let value = Self.boundaryValue(property.schema, bound) {
                    body[property.name] = value
                    changed = true
                }
            }
            copy.body = .data(JSONValue.object(body).serialized())
        }
        return changed ? copy : nil
    }

    /// The request without its optional query and header parameters and optional body
    /// properties; nil when it has none.
    func withoutOptionals() -> TransportRequest? {
        var changed = false
        var items = queryItems
        for parameter in operation.parameters where !parameter.required {
            switch parameter.location {
            case .query:
                if items.contains(where: { $0.name == parameter.name }) {
                    items.removeAll { $0.name == parameter.name }
                    changed = true
                }
            case .header:
                if request.headers[parameter.name] != nil { changed = true }
            case .path: break
            }
        }
        var copy = replacingQuery(items)
        for parameter in operation.parameters where !parameter.required && parameter.location == .header {
            copy.headers.remove(name: parameter.name)
        }
        if let (schema, members) = json, case .object(_, let required) = schema.unwrapped {
            let kept = members.filter { required.contains($0.key) }
            if kept.count != members.count {
                copy.body = .data(JSONValue.object(kept).serialized())
                changed = true
            }
        }
        return changed ? copy : nil
    }

    /// The request with every path parameter set to a value its schema accepts but that names
    /// nothing; nil when the operation has no path parameter or one cannot be made.
    func withUnknownIDs() -> TransportRequest? {
        let parameters = operation.parameters.filter { $0.location == .path }
        guard !parameters.isEmpty else { return nil }
        var values: [String: String] = [:]
        for parameter in parameters {
            guard let value = Self.unknownValue(parameter.schema),
                let encoded = try? PathComponent(value).encoded
            else { return nil }
            values[parameter.name] = encoded
        }
        let path = PathTemplate.fill(operation.path, with: values)
        let url: URL
        do {
            url = try URL.joining(path: path, base: baseURL)
        } catch {
            return nil  // a path that cannot be joined is a case that cannot be made, as documented
        }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        components.percentEncodedQuery =
            URLComponents(url: request.url, resolvingAgainstBaseURL: false)?
            .percentEncodedQuery
        guard let full = components.url else { return nil }
        var copy = request
        copy.url = full
        return copy
    }

    /// The request with a JSON body of the wrong type (an array for an object); nil when the
    /// operation takes no JSON body.
    func withBadBody() -> TransportRequest? {
        guard case .json(let schema) = operation.body else { return nil }
        var copy = request
        if case .object = schema.unwrapped {
            copy.body = .data(Data("[]".utf8))
        } else {
            copy.body = .data(Data("{}".utf8))
        }
        copy.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        return copy
    }

    /// The request with one bounded integer or enumerated query parameter out of its range;
    /// nil when there is none.
    func withBadParameter() -> TransportRequest? {
        for parameter in queryParameters {
            let bad: String
            switch parameter.schema.unwrapped {
            case .integer(_, let maximum?): bad = String(maximum + 1)
            case .integer(let minimum?, nil): bad = String(minimum - 1)
            case .enumeration(let values): bad = "not-" + (values.first ?? "declared")
            default: continue
            }
            var items = queryItems
            items.removeAll { $0.name == parameter.name }
            items.append(URLQueryItem(name: parameter.name, value: bad))
            return replacingQuery(items)
        }
        return nil
    }

    private var queryItems: [URLQueryItem] {
        URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    }

    private func replacingQuery(_ items: [URLQueryItem]) -> TransportRequest {
        var copy = request
        guard var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {
            return copy
        }
        components.queryItems = items.isEmpty ? nil : items
        if let url = components.url { copy.url = url }
        return copy
    }

    /// A JSON value at a property's bound: a string of its least or most characters, an integer
    /// at its minimum or maximum; nil for anything else.
    static func boundaryValue(_ schema: Schema, _ bound: Bound) -> JSONValue? {
        switch schema.unwrapped {
        case .integer(let minimum, let maximum):
            return (bound == .minimum ? minimum : maximum).map { .int(Int64($0)) }
        case .string(let rules) where rules.format == nil:
            let length = bound == .minimum ? max(rules.minLength ?? 0, 1) : rules.maxLength
            guard let length, bound == .maximum || rules.minLength != nil else { return nil }
            return text(rules, length: length).map(JSONValue.string)
        default:
            return nil
        }
    }

    /// A value of `schema` that is unlikely to name anything on the server.
    static func unknownValue(_ schema: Schema) -> String? {
        switch schema.unwrapped {
        case .integer(_, let maximum): return String(maximum ?? 999_999_999)
        case .string(let rules):
            if rules.format == "uuid" { return "00000000-0000-4000-8000-00000000dead" }
            guard rules.format == nil else { return nil }
            let length = min(max(rules.minLength ?? 1, 18), rules.maxLength ?? 18)
            return text(rules, length: length, seed: "zzunknown0id000000")
        case .any: return "zzunknown0id000000"
        default: return nil
        }
    }

    /// A string the rules accept, of `length` characters, from `seed`'s characters where the rules
    /// allow them.
    static func text(_ rules: Schema.StringRules, length: Int, seed: String = "a") -> String? {
        let prefix = rules.prefix ?? ""
        guard length >= prefix.count else { return nil }
        let allowed = rules.allowed
        let fallback: Character =
            allowed.map { set in set.contains("a") ? "a" : set.sorted().first ?? "a" } ?? "a"
        var body = ""
        let characters = Array(seed)
        for index in 0..<(length - prefix.count) {
            let wanted = characters[index % characters.count]
            body.append(allowed?.contains(wanted) == false ? fallback : wanted)
        }
        if rules.noLeadingDot, body.hasPrefix(".") { body = String(fallback) + body.dropFirst() }
        let result = prefix + body
        return rules.violation(of: result) == nil ? result : nil
    }
}
