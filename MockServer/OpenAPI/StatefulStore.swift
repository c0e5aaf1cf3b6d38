import CourierOpenAPI
import CourierPrimitives
import Foundation
import MockServer

/// The resources a stateful mock keeps between requests.
///
/// A resource lives at an item path (`/pets/{petId}`) under its collection path (`/pets`). Its kind is
/// kept when the document can make one: a POST on the collection path or a PUT on the item path. Then a
/// POST to the collection stores what it creates (what was sent, on the answer the document makes, under
/// an identifier taken from the body's id-like field or made up), a GET of the item reads it back, PUT
/// replaces it (or creates it at that path), PATCH merges into it, DELETE removes it with everything
/// under its path, and a GET of the collection whose answer is an array lists the stored items. A
/// request under a kept kind's item path with an identifier not stored gets a 404. Every answer is
/// still valid against the operation's response schema: stored fields that the schema would refuse are
/// left out of it.
final class StatefulStore: Sendable {
    let document: OpenAPIDocument
    let builder: ResponseBuilder
    /// The kept kinds' item paths, each variable written `{}` (`/pets/{}`), with the variable's name and
    /// schema as the item operations declare them.
    let kinds: [String: Identifier]
    private let state = Locked(State())

    struct Identifier {
        /// The path variable's name, such as `petId`.
        var name: String
        /// The path parameter's schema, if declared.
        var schema: JSONValue?
    }

    struct State {
        /// Collections by their concrete path (`/owners/7/pets`), each its items by identifier.
        var collections: [String: Items] = [:]
        /// The next number used to make an identifier.
        var counter: Int64 = 1
    }

    struct Items {
        var order: [String] = []
        var items: [String: JSONValue] = [:]

        mutating func put(_ id: String, _ item: JSONValue) {
            if items.updateValue(item, forKey: id) == nil { order.append(id) }
        }

        mutating func remove(_ id: String) {
            items[id] = nil
            order.removeAll { $0 == id }
        }
    }

    /// A path template's segment: fixed text or a whole-segment variable.
    enum Segment: Equatable {
        case literal(String)
        case variable(String)

        var normalized: String {
            switch self {
            case .literal(let text): text
            case .variable: "{}"
            }
        }
    }

    init(document: OpenAPIDocument, builder: ResponseBuilder) {
        self.document = document
        self.builder = builder
        var kinds: [String: Identifier] = [:]
        let operations = document.operations
        func identifier(_ operation: OpenAPIOperation) -> Identifier? {
            guard case .variable(let name) = Self.segments(operation.path).last else { return nil }
            let parameter = operation.parameters.first { $0.location == .path && $0.name == name }
            return Identifier(name: name, schema: parameter?.schema)
        }
        for operation in operations {
            let segments = Self.segments(operation.path)
            let method = operation.method.uppercased()
            if method == "PUT", let id = identifier(operation) {
                kinds[Self.key(segments)] = kinds[Self.key(segments)] ?? id
            }
            guard method == "POST", case .literal = segments.last else { continue }
            let item = Self.key(segments) + "/{}"
            // The item operation that names the identifier, preferring a GET's.
            let named = operations.filter { Self.key(Self.segments($0.path)) == item }
                .sorted {
                    ($0.method.uppercased() == "GET" ? 0 : 1) < ($1.method.uppercased() == "GET" ? 0 : 1)
                }
            if let id = named.lazy.compactMap(identifier).first { kinds[item] = id }
        }
        self.kinds = kinds
    }

    static func segments(_ template: String) -> [Segment] {
        template.split(separator: "/", omittingEmptySubsequences: true).map { part in
            if part.hasPrefix("{"), part.hasSuffix("}"), part.count > 2,
                !part.dropFirst().dropLast().contains("{")
            {
                return .variable(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part))
        }
    }

    static func key(_ segments: some Collection<Segment>) -> String {
        "/" + segments.map(\.normalized).joined(separator: "/")
    }

    /// The concrete path of `segments`, each variable replaced by the request's (decoded) value.
    static func concrete(_ segments: some Collection<Segment>, _ values: [String: String]) -> String {
        "/"
            + segments.map { segment in
                switch segment {
                case .literal(let text): text
                case .variable(let name):
                    values[name].map { $0.removingPercentEncoding ?? $0 } ?? ""
                }
            }.joined(separator: "/")
    }

    /// The answer from the kept resources, or nil when the operation is not one of theirs (the document
    /// answers it).
    func respond(to request: ServerRequest, _ operation: OpenAPIOperation, path values: [String: String])
        -> ServerResponse?
    {
        let segments = Self.segments(operation.path)
        let method = request.method.uppercased()
        let collections = state.withLock { $0.collections }
        // Every kept resource on the path must exist; a PUT creates the one it names.
        for end in segments.indices {
            guard case .variable(let name) = segments[end], kinds[Self.key(segments[...end])] != nil else {
                continue
            }
            let id = values[name].map { $0.removingPercentEncoding ?? $0 } ?? ""
            let collection = Self.concrete(segments[..<end], values)
            if collections[collection]?.items[id] != nil { continue }
            if end == segments.count - 1, method == "PUT" { continue }
            return notFound(operation, name: name, path: Self.concrete(segments[...end], values))
        }
        let key = Self.key(segments)
        switch segments.last {
        case .literal where kinds[key + "/{}"] != nil:
            let collection = Self.concrete(segments, values)
            switch method {
            case "POST": return create(request, operation, in: collection, kind: key + "/{}")
            case "GET": return list(request, operation, collection: collection)
            default: return nil
            }
        case .variable(let name) where kinds[key] != nil:
            let collection = Self.concrete(segments.dropLast(), values)
            let id = values[name].map { $0.removingPercentEncoding ?? $0 } ?? ""
            switch method {
            case "GET", "HEAD":
                return read(request, operation, collection: collection, id: id)
            case "PUT", "PATCH":
                return update(
                    request, operation, collection: collection, id: id, name: name, merge: method == "PATCH")
            case "DELETE":
                return delete(request, operation, collection: collection, id: id)
            default: return nil
            }
        default:
            return nil
        }
    }

    // MARK: Operations

    func create(_ request: ServerRequest, _ operation: OpenAPIOperation, in collection: String, kind: String)
        -> ServerResponse
    {
        var response = builder.respond(to: request, operation)
        guard (200...299).contains(response.status), let identifier = kinds[kind] else { return response }
        let sent = Self.object(request)
        let answer = body(of: response, operation)
        let field = idField(identifier.name, among: Array((answer?.object ?? [:]).keys) + Array(sent.keys))
        let fieldSchema = field.flatMap { answer?.property($0, builder.document) } ?? identifier.schema
        // The stored resource: the answer the document makes, with what was sent where the schema allows.
        var resource = answer.map { overlay(sent, onto: $0.object, schema: $0.schema) } ?? sent
        let id: JSONValue = state.withLock { state in
            let taken = state.collections[collection]?.items ?? [:]
            let id = newIdentifier(
                sent: field.flatMap { sent[$0] }, schema: fieldSchema, taken: taken, &state)
            if let field { resource[field] = id }
            state.collections[collection, default: Items()].put(Self.text(id), .object(resource))
            return id
        }
        if let answer {
            // An id field the answer's schema does not have stays out of the answer, not out of the store.
            let holds =
                answer.schema.map { builder.validator.isValid(.object(resource), against: $0) } ?? true
            let shown = holds ? resource : overlay(resource, onto: answer.object, schema: answer.schema)
            response.body = .data(JSONValue.object(shown).serialized(pretty: true))
        }
        let location = request.path.hasSuffix("/") ? request.path : request.path + "/"
        let segment =
            Self.text(id).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? Self.text(id)
        if response.status == 201 {
            response.headers.remove(name: "Location")
            response.headers.add(name: "Location", value: location + segment)
        }
        return stored(response)
    }

    func read(_ request: ServerRequest, _ operation: OpenAPIOperation, collection: String, id: String)
        -> ServerResponse
    {
        let response = builder.respond(to: request, operation)
        guard (200...299).contains(response.status),
            let item = state.withLock({ $0.collections[collection]?.items[id] })
        else { return response }
        return shaped(response, operation, item)
    }

    func update(
        _ request: ServerRequest, _ operation: OpenAPIOperation, collection: String, id: String, name: String,
        merge: Bool
    ) -> ServerResponse {
        let response = builder.respond(to: request, operation)
        guard (200...299).contains(response.status) else { return response }
        let sent = Self.object(request)
        let answer = body(of: response, operation)
        let pathSchema = operation.parameters.first { $0.location == .path && $0.name == name }?.schema
        let item: JSONValue = state.withLock { state in
            var resource = state.collections[collection]?.items[id]?.object ?? [:]
            for (key, value) in sent {
                if merge, value == .null { resource[key] = nil } else { resource[key] = value }
            }
            // The identifier stays the path's: in the type the resource had it, else its schema's.
            let field = idField(name, among: Array(resource.keys) + Array((answer?.object ?? [:]).keys))
            if let field {
                let old = state.collections[collection]?.items[id]?.object?[field]
                resource[field] = old ?? typed(id, answer?.property(field, document) ?? pathSchema)
            }
            state.collections[collection, default: Items()].put(id, .object(resource))
            return .object(resource)
        }
        return shaped(response, operation, item)
    }

    func delete(_ request: ServerRequest, _ operation: OpenAPIOperation, collection: String, id: String)
        -> ServerResponse
    {
        let response = builder.respond(to: request, operation)
        guard (200...299).contains(response.status) else { return response }
        let itemPath = (collection == "/" ? "" : collection) + "/" + id
        state.withLock { state in
            state.collections[collection]?.remove(id)
            for key in state.collections.keys where key.hasPrefix(itemPath + "/") {
                state.collections[key] = nil
            }
        }
        return stored(response)
    }

    func list(_ request: ServerRequest, _ operation: OpenAPIOperation, collection: String) -> ServerResponse {
        var response = builder.respond(to: request, operation)
        guard (200...299).contains(response.status), let answer = body(of: response, operation),
            case .array(let made) = answer.value
        else { return response }
        let items = state.withLock { state in
            let kept = state.collections[collection] ?? Items()
            return kept.order.compactMap { kept.items[$0] }
        }
        let schema = answer.schema.map(builder.document.resolve)
        let itemSchema = schema?["items"]
        let listed = JSONValue.array(
            items.map { item in
                guard case .object(let members) = item, let itemSchema,
                    !builder.validator.isValid(item, against: itemSchema),
                    case .object(let base) = made.first ?? generated(itemSchema)
                else { return item }
                return .object(overlay(members, onto: base, schema: itemSchema))
            })
        if let schema = answer.schema, !builder.validator.isValid(listed, against: schema) { return response }
        response.body = .data(listed.serialized(pretty: true))
        return stored(response)
    }

    // MARK: Parts

    /// A 404 for a resource not kept, in the operation's declared shape for it.
    func notFound(_ operation: OpenAPIOperation, name: String, path: String) -> ServerResponse {
        let problem = Refusal.Problem(
            location: "path", name: name, path: nil, rule: "not-found",
            message: "nothing is stored at \(path)")
        return builder.refusal(Refusal(status: 404, problems: [problem]), operation)
    }

    /// The answer with `item` in it where its schema allows.
    func shaped(_ response: ServerResponse, _ operation: OpenAPIOperation, _ item: JSONValue)
        -> ServerResponse
    {
        var response = response
        guard let answer = body(of: response, operation), case .object(let members) = item else {
            return stored(response)
        }
        let shaped = overlay(members, onto: answer.object, schema: answer.schema)
        response.body = .data(JSONValue.object(shaped).serialized(pretty: true))
        return stored(response)
    }

    func stored(_ response: ServerResponse) -> ServerResponse {
        var response = response
        response.headers.remove(name: ServerResponse.exampleAnswerHeader)
        response.headers.add(name: ServerResponse.exampleAnswerHeader, value: "stored")
        return response
    }

    /// A JSON answer's value and its schema.
    struct Answer {
        var value: JSONValue
        var schema: JSONValue?
        var object: [String: JSONValue] {
            if case .object(let members) = value { return members }
            return [:]
        }

        func property(_ name: String, _ document: OpenAPIDocument) -> JSONValue? {
            schema.flatMap { document.resolve($0)["properties"]?[name] }
        }
    }

    func body(of response: ServerResponse, _ operation: OpenAPIOperation) -> Answer? {
        guard case .data(let data) = response.body, let type = response.headers["Content-Type"],
            MediaTypes.isJSON(type),
            let value = try? JSONValue.parse(data)  // allowed: a body that is not JSON is served as made
        else { return nil }
        let declared =
            operation.responses[String(response.status)] ?? operation.responses["\(response.status / 100)XX"]
            ?? operation.responses["default"]
        let content = declared.map(document.resolve)?["content"]
        let schema = content?[type]?["schema"] ?? content?[MediaTypes.essence(type)]?["schema"]
        return Answer(value: value, schema: schema)
    }

    /// `fields` set on `base` one at a time, each kept only if the result still holds against `schema`.
    func overlay(_ fields: [String: JSONValue], onto base: [String: JSONValue], schema: JSONValue?)
        -> [String: JSONValue]
    {
        guard let schema else { return base.merging(fields) { $1 } }
        var members = base
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) where members[name] != value {
            var trial = members
            trial[name] = value
            if builder.validator.isValid(.object(trial), against: schema) { members = trial }
        }
        return members
    }

    func generated(_ schema: JSONValue) -> JSONValue? {
        // A schema no value fits lists the stored item as it is.
        let generator = SchemaValueGenerator(document: document)
        return try? generator.value(for: schema, seed: builder.seed)  // allowed: see the line above
    }

    /// The body's id-like field: the path variable's name, `id`, or the same name in another case or
    /// spelling (`pet_id` for `petId`).
    func idField(_ name: String, among keys: [String]) -> String? {
        func plain(_ text: String) -> String { text.lowercased().filter { $0.isLetter || $0.isNumber } }
        return keys.first { $0 == name } ?? keys.first { $0 == "id" } ?? keys.first {
            plain($0) == plain(name)
        }
            ?? keys.first { ["_id", "uuid"].contains($0) }
    }

    /// An identifier not taken in the collection: the one sent when it is free and valid, else numbers
    /// counted up (as the schema's type), else values made from the schema.
    func newIdentifier(sent: JSONValue?, schema: JSONValue?, taken: [String: JSONValue], _ state: inout State)
        -> JSONValue
    {
        func fits(_ value: JSONValue) -> Bool {
            taken[Self.text(value)] == nil
                && (schema.map { builder.validator.isValid(value, against: $0) } ?? true)
        }
        if let sent, sent.stringValue != nil || sent.intValue != nil, fits(sent) { return sent }
        let type = schema.map(document.resolve)?["type"]
        let numeric = type?.stringValue == "integer" || type?.stringValue == "number"
        for _ in 0..<32 {
            let number = state.counter
            state.counter += 1
            let value: JSONValue = numeric ? .int(number) : .string(String(number))
            if fits(value) { return value }
        }
        let generator = SchemaValueGenerator(document: document, prefersExamples: false)
        for attempt in 0..<64 {
            let seed = builder.seed ^ ResponseBuilder.hash(["id", String(state.counter), String(attempt)])
            // A schema no value fits ends the search: the identifier below is made up.
            guard let schema, let value = try? generator.value(for: schema, seed: seed)  // allowed: above
            else { break }
            if fits(value) { return value }
        }
        state.counter += 1
        return .string("resource-\(state.counter)")
    }

    /// The path's identifier in the type its schema says: a number for an integer or number schema.
    func typed(_ id: String, _ schema: JSONValue?) -> JSONValue {
        let type = schema.map(document.resolve)?["type"]?.stringValue
        if type == "integer" || type == "number", let number = Int64(id) { return .int(number) }
        return .string(id)
    }

    static func text(_ value: JSONValue) -> String { value.stringValue ?? value.text }

    /// The request's JSON object body, or an empty one.
    static func object(_ request: ServerRequest) -> [String: JSONValue] {
        guard let type = request.headers["Content-Type"], MediaTypes.isJSON(type),
            case .success(.object(let members)) = request.bodyJSON
        else { return [:] }
        return members
    }
}

extension JSONValue {
    fileprivate var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}
