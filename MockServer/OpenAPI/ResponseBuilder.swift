import CourierOpenAPI
import CourierPrimitives
import Foundation
import MockServer

/// Makes an operation's answer: the status, the media type the client accepts, and a body from the
/// document's examples or generated from the schema, as a request's `Prefer` field asks.
struct ResponseBuilder {
    let document: OpenAPIDocument
    let seed: UInt64
    let validator: SchemaValidator

    /// What a request's `Prefer` field asks for (Prism's names).
    struct Preferences {
        var code: String?
        var example: String?
        var dynamic = false

        init(_ field: String?) {
            for item in (field ?? "").split(whereSeparator: { $0 == "," || $0 == ";" }) {
                let pair = item.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(
                        in: CharacterSet(charactersIn: "\""))
                }
                guard pair.count == 2 else { continue }
                switch pair[0].lowercased() {
                case "code": code = pair[1]
                case "example": example = pair[1]
                case "dynamic": dynamic = pair[1].lowercased() == "true"
                default: break
                }
            }
        }
    }

    init(document: OpenAPIDocument, seed: UInt64) {
        self.document = document
        self.seed = seed
        validator = SchemaValidator(document: document)
    }

    func respond(to request: ServerRequest, _ operation: OpenAPIOperation) -> ServerResponse {
        let preferences = Preferences(request.headers["Prefer"])
        guard let (key, status) = chooseStatus(operation, preferences.code) else {
            // An operation that declares no response (OpenAPI 3.1 allows it) promises nothing: no content.
            if preferences.code == nil, operation.responses.isEmpty {
                var headers = ServerHeaders()
                headers.add(name: ServerResponse.exampleAnswerHeader, value: "example")
                return ServerResponse(status: 204, headers: headers, body: .empty)
            }
            return problem(
                preferences.code == nil ? 500 : 404, "no_response",
                preferences.code.map { "the operation declares no response with status \($0)" }
                    ?? "the operation declares no responses")
        }
        let response = operation.responses[key] ?? .object([:])
        var headers = ServerHeaders()
        var content: [String: JSONValue] = [:]
        if case .object(let media) = response["content"] ?? .null { content = media }
        let offered = content.keys.sorted { lhs, rhs in
            // JSON first, then the document's other types in name order.
            (MediaTypes.isJSON(lhs) ? 0 : 1, lhs) < (MediaTypes.isJSON(rhs) ? 0 : 1, rhs)
        }
        var body = Data()
        if !offered.isEmpty {
            guard let chosen = MediaTypes.negotiate(accept: request.headers["Accept"], offered: offered)
            else {
                return problem(
                    406, "not_acceptable", "the response is available as \(offered.joined(separator: ", "))")
            }
            let media = content[chosen] ?? .object([:])
            let value: JSONValue
            switch example(media, preferences, operation: operation, request: request, key: key + chosen) {
            case .success(let made): value = made
            case .failure(let failure): return failure.response
            }
            let type = concrete(chosen)
            headers.add(name: "Content-Type", value: type)
            body = serialize(value, as: type, schema: media["schema"])
        }
        for (name, header) in declaredHeaders(response) {
            headers.add(name: name, value: header)
        }
        headers.add(name: ServerResponse.exampleAnswerHeader, value: "example")
        return ServerResponse(
            status: status, headers: headers, body: request.method == "HEAD" ? .empty : .data(body))
    }

    /// A refusal as the operation declares it: under a declared status (a 400 becomes the declared 422
    /// when only that is declared, and the other way round), and with a body that conforms to that
    /// response's schema, carrying the refusal's message, status and problems where the schema has room.
    func refusal(_ refusal: Refusal, _ operation: OpenAPIOperation) -> ServerResponse {
        var refusal = refusal
        let keys = operation.responses.keys
        func declared(_ status: Int) -> Bool {
            keys.contains(String(status)) || keys.contains("\(status / 100)XX") || keys.contains("default")
        }
        if !declared(refusal.status), refusal.status == 400 || refusal.status == 422 {
            // The document's own word for a refused request: the other of 400 and 422, else its lowest 4xx.
            let other = refusal.status == 400 ? 422 : 400
            let fallback = keys.compactMap(Int.init).filter { (400...499).contains($0) && $0 != 401 }.min()
            if declared(other) {
                refusal.status = other
            } else if let fallback {
                refusal.status = fallback
            }
        }
        var response = refusal.response
        let status = String(refusal.status)
        let key =
            keys.contains(status)
            ? status : keys.contains("\(refusal.status / 100)XX") ? "\(refusal.status / 100)XX" : "default"
        guard case .object(let content) = operation.responses[key]?["content"] ?? .null else {
            return response
        }
        guard let type = content.keys.sorted().first(where: MediaTypes.isJSON) else {
            return textRefusal(refusal, content, response)
        }
        // In the declared media type (application/problem+json, say), whatever the body.
        response.headers.remove(name: "Content-Type")
        response.headers.add(name: "Content-Type", value: concrete(type))
        guard let schema = content[type]?["schema"], case .object(var ours) = refusal.body else {
            return response
        }
        if validator.isValid(.object(ours), against: schema) { return response }
        guard
            let generated = try? SchemaValueGenerator(document: document).value(
                for: schema, seed: seed ^ Self.hash([key])),
            case .object(var members) = generated
        else { return response }
        ours["code"] = .int(Int64(refusal.status))
        for (name, value) in ours.sorted(by: { $0.key < $1.key }) {
            var trial = members
            trial[name] = value
            if validator.isValid(.object(trial), against: schema) { members = trial }
        }
        response.body = .data(JSONValue.object(members).serialized(pretty: true))
        return response
    }

    struct Failure: Error {
        var response: ServerResponse
    }

    /// The response key and the status to send: the preferred code when declared, else the lowest 2XX.
    func chooseStatus(_ operation: OpenAPIOperation, _ preferred: String?) -> (String, Int)? {
        let keys = operation.responses.keys
        if let preferred {
            guard let code = Int(preferred), (100...599).contains(code) else { return nil }
            if keys.contains(preferred) { return (preferred, code) }
            let range = "\(code / 100)XX"
            if keys.contains(range) { return (range, code) }
            if keys.contains("default") { return ("default", code) }
            return nil
        }
        let success = keys.compactMap { key -> (String, Int)? in
            guard let code = Int(key), (200...299).contains(code) else { return nil }
            return (key, code)
        }.min { $0.1 < $1.1 }
        if let success { return success }
        if keys.contains("2XX") { return ("2XX", 200) }
        if keys.contains("default") { return ("default", 200) }
        let other = keys.compactMap { key in Int(key).map { (key, $0) } }.min { $0.1 < $1.1 }
        return other
    }

    /// The body value: a named example, the media type's example, or one generated from the schema.
    func example(
        _ media: JSONValue, _ preferences: Preferences, operation: OpenAPIOperation, request: ServerRequest,
        key: String
    ) -> Result<JSONValue, Failure> {
        let schema = media["schema"]
        var named: [(String, JSONValue)] = []
        if case .object(let examples) = media["examples"] ?? .null {
            for (name, example) in examples.sorted(by: { $0.key < $1.key }) {
                if let value = document.resolve(example)["value"] { named.append((name, value)) }
            }
        }
        if let wanted = preferences.example {
            guard let found = named.first(where: { $0.0 == wanted }) else {
                let names = named.map(\.0).joined(separator: ", ")
                return .failure(
                    Failure(
                        response: problem(
                            404, "no_example",
                            "no example named '\(wanted)'" + (names.isEmpty ? "" : "; there are \(names)")))
                )
            }
            return .success(found.1)
        }
        if !preferences.dynamic,
            let paired = pairedExample(named, operation: operation, request: request, schema: schema)
        {
            return .success(paired)
        }
        if !preferences.dynamic {
            var candidates: [JSONValue] = []
            if let example = media["example"] { candidates.append(example) }
            candidates += named.map(\.1)
            if let first = candidates.first(where: { value in
                schema.map { validator.isValid(value, against: $0) } ?? true
            }) {
                return .success(first)
            }
        }
        guard let schema else { return .success(.null) }
        let generator = SchemaValueGenerator(document: document, prefersExamples: !preferences.dynamic)
        let stream =
            preferences.dynamic
            ? Self.hash([request.method, request.target, String(request.body.count)])
            : Self.hash([operation.method, operation.path, key])
        do {
            return .success(try generator.value(for: schema, seed: seed ^ stream))
        } catch {
            return .failure(
                Failure(
                    response: problem(
                        500, "no_example", "no value can be made for the response schema: \(error)")))
        }
    }

    /// A media range as a concrete type to send: `application/*` as `application/octet-stream`.
    func concrete(_ type: String) -> String {
        let essence = MediaTypes.essence(type)
        if essence == "*/*" || essence == "application/*" { return "application/json" }
        if essence.hasSuffix("/*") { return essence.dropLast(2) + "/plain" }
        return type
    }

    /// The value written as the media type asks: JSON, XML, text, or a form.
    func serialize(_ value: JSONValue, as type: String, schema: JSONValue?) -> Data {
        let essence = MediaTypes.essence(type)
        if MediaTypes.isJSON(essence) { return value.serialized(pretty: true) }
        if essence.hasSuffix("/xml") || essence.hasSuffix("+xml") {
            let resolved = schema.map(document.resolve)
            let name = resolved?["xml"]?["name"]?.stringValue ?? "root"
            return Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + xml(value, name: name)).utf8)
        }
        if essence == "application/x-www-form-urlencoded", case .object(let members) = value {
            let text = members.sorted { $0.key < $1.key }.map { key, member in
                let encoded = (member.stringValue ?? member.text).addingPercentEncoding(
                    withAllowedCharacters: .alphanumerics)
                return key + "=" + (encoded ?? "")
            }.joined(separator: "&")
            return Data(text.utf8)
        }
        if let bytes = BinaryBodies.bytes(for: value, as: essence) { return bytes }
        if case .string(let text) = value { return Data(text.utf8) }
        return Data(value.text.utf8)
    }

    func xml(_ value: JSONValue, name: String) -> String {
        let tag = name.isEmpty ? "item" : name
        switch value {
        case .object(let members):
            let inner = members.sorted { $0.key < $1.key }.map { xml($1, name: $0) }.joined()
            return "<\(tag)>\(inner)</\(tag)>"
        case .array(let items):
            return items.map { xml($0, name: tag) }.joined()
        case .null:
            return "<\(tag)/>"
        case .string(let text):
            let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
                of: "<", with: "&lt;"
            )
            .replacingOccurrences(of: ">", with: "&gt;")
            return "<\(tag)>\(escaped)</\(tag)>"
        default:
            return "<\(tag)>\(value.text)</\(tag)>"
        }
    }

    /// The response's declared headers, each with a value made from its schema (simple style).
    func declaredHeaders(_ response: JSONValue) -> [(String, String)] {
        guard case .object(let declared) = response["headers"] ?? .null else { return [] }
        var headers: [(String, String)] = []
        for (name, raw) in declared.sorted(by: { $0.key < $1.key }) where name.lowercased() != "content-type"
        {
            let header = document.resolve(raw)
            let schema =
                header["schema"] ?? header["content"]?["application/json"]?["schema"]
                ?? .object(["type": .string("string")])
            let generator = SchemaValueGenerator(document: document)
            guard let value = try? generator.value(for: schema, seed: seed ^ Self.hash([name])) else {
                continue
            }
            let text: String
            switch value {
            case .string(let string): text = string
            case .array(let items): text = items.map { $0.stringValue ?? $0.text }.joined(separator: ",")
            case .object(let members):
                text = members.sorted { $0.key < $1.key }.map {
                    "\($0.key),\($0.value.stringValue ?? $0.value.text)"
                }
                .joined(separator: ",")
            default: text = value.text
            }
            headers.append((name, text))
        }
        return headers
    }

    func problem(_ status: Int, _ code: String, _ message: String) -> ServerResponse {
        let body: JSONValue = .object([
            "error": .string(code), "status": .int(Int64(status)), "message": .string(message),
        ])
        return ServerResponse.json(body.serialized(pretty: true), status: status)
    }

    /// FNV-1a over the parts: a stable stream number per operation or request, on every platform and run.
    static func hash(_ parts: [String]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            hash ^= 0xFF
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
