import CourierPrimitives
import Foundation

extension Recorder {
    /// A stub made from recorded exchanges, with the body file it needs (when its body is extracted).
    struct RecordedStub {
        var mapping: JSONValue
        var bodyFile: (name: String, data: Data)?
    }

    /// Stubs for the exchanges the spec's filters keep: one per distinct request, or a scenario of one per
    /// repeat when the upstream answered a repeated request differently (`repeatsAsScenarios`).
    /// - Parameter extractBodies: whether bodies may go to `__files` (only when persisting to a folder).
    static func stubs(from exchanges: [Exchange], spec: RecordSpec, extractBodies: Bool) -> [RecordedStub] {
        let kept = exchanges.filter { spec.filters?.matches(RequestView($0.request)) ?? true }
        var order: [String] = []
        var groups: [String: [Exchange]] = [:]
        for exchange in kept {
            let key = signature(exchange.request, spec)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(exchange)
        }
        var stubs: [RecordedStub] = []
        for (index, key) in order.enumerated() {
            let group = groups[key] ?? []
            guard let first = group.first else { continue }
            let name = stubName(first.request)
            let request = requestPattern(first.request, spec)
            let responses = group.map(\.response)
            let distinct = responses.dropFirst().contains { !same($0, responses[0]) }
            if !distinct || !spec.repeatsAsScenarios {
                stubs.append(stub(name: name, request: request, response: responses[0], spec, extractBodies))
                continue
            }
            let scenario = "scenario-\(index + 1)-\(name)"
            for (step, response) in responses.enumerated() {
                var recorded = stub(name: name, request: request, response: response, spec, extractBodies)
                guard case .object(var members) = recorded.mapping else { continue }
                members["scenarioName"] = .string(scenario)
                members["requiredScenarioState"] = .string(
                    step == 0 ? StubMapping.startedState : "\(scenario)-\(step + 1)")
                if step + 1 < responses.count {
                    members["newScenarioState"] = .string("\(scenario)-\(step + 2)")
                }
                recorded.mapping = .object(members)
                stubs.append(recorded)
            }
        }
        return stubs
    }

    private static func same(_ a: ProxyResponse, _ b: ProxyResponse) -> Bool {
        a.status == b.status && a.body == b.body
            && a.headers.map { "\($0.name.lowercased()):\($0.value)" }
                == b.headers.map { "\($0.name.lowercased()):\($0.value)" }
    }

    private static func signature(_ request: ServerRequest, _ spec: RecordSpec) -> String {
        var key = "\(request.method) \(request.target)"
        for (name, _) in spec.captureHeaders {
            key += "\n\(name.lowercased()): \(request.headers.values(for: name))"
        }
        return key + "\n" + request.body.base64EncodedString()
    }

    /// `/api/things/1` → `api_things_1`.
    static func stubName(_ request: ServerRequest) -> String {
        let cleaned = request.path.map { $0.isLetter || $0.isNumber ? $0 : "_" }
        let name = String(cleaned).split(separator: "_").joined(separator: "_")
        return String((name.isEmpty ? "root" : name).prefix(100))
    }

    private static func requestPattern(_ request: ServerRequest, _ spec: RecordSpec) -> JSONValue {
        var members: [String: JSONValue] = [
            "url": .string(request.target), "method": .string(request.method),
        ]
        var headers: [String: JSONValue] = [:]
        for (name, caseInsensitive) in spec.captureHeaders {
            guard let value = request.headers[name] else { continue }
            var matcher: [String: JSONValue] = ["equalTo": .string(value)]
            if caseInsensitive { matcher["caseInsensitive"] = .bool(true) }
            headers[name] = .object(matcher)
        }
        if !headers.isEmpty { members["headers"] = .object(headers) }
        if !request.body.isEmpty {
            let text = String(data: request.body, encoding: .utf8)
            let json = text.flatMap(JSONValue.parseOrNil)
            let pattern: JSONValue
            switch (spec.bodyMatcher, json, text) {
            case (.auto, let json?, _), (.equalToJson, let json?, _):
                pattern = .object([
                    "equalToJson": json, "ignoreArrayOrder": .bool(spec.ignoreArrayOrder),
                    "ignoreExtraElements": .bool(spec.ignoreExtraElements),
                ])
            case (.equalTo(let caseInsensitive), _, let text?) where caseInsensitive:
                pattern = .object(["equalTo": .string(text), "caseInsensitive": .bool(true)])
            case (_, _, let text?):
                pattern = .object(["equalTo": .string(text)])
            default:
                pattern = .object(["binaryEqualTo": .string(request.body.base64EncodedString())])
            }
            members["bodyPatterns"] = .array([pattern])
        }
        return .object(members)
    }

    private static func stub(
        name: String, request: JSONValue, response: ProxyResponse, _ spec: RecordSpec, _ extractBodies: Bool
    ) -> RecordedStub {
        let id = UUID().uuidString.lowercased()
        var headers: [String: JSONValue] = [:]
        var names: [String] = []
        for (field, value) in response.headers
        where !ProxyForwarder.responseHopByHop.contains(field.lowercased()) {
            let existing = names.first { $0.lowercased() == field.lowercased() }
            let key = existing ?? field
            if existing == nil { names.append(field) }
            switch headers[key] {
            case nil: headers[key] = .string(value)
            case .array(let values)?: headers[key] = .array(values + [.string(value)])
            case let single?: headers[key] = .array([single, .string(value)])
            }
        }
        var definition: [String: JSONValue] = ["status": .int(Int64(response.status))]
        if !headers.isEmpty { definition["headers"] = .object(headers) }
        var bodyFile: (name: String, data: Data)?
        if !response.body.isEmpty {
            let contentType =
                response.headers.first { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
            let text = String(data: response.body, encoding: .utf8)
            let isText = text != nil && (contentType.isEmpty || isTextual(contentType))
            let threshold = isText ? spec.textSizeThreshold : spec.binarySizeThreshold
            let extract =
                extractBodies
                && (spec.textSizeThreshold == nil && spec.binarySizeThreshold == nil
                    ? true : response.body.count > (threshold ?? Int.max))
            if extract {
                let file = "\(name)-\(id.prefix(8)).\(fileExtension(contentType, isText: isText))"
                bodyFile = (file, response.body)
                definition["bodyFileName"] = .string(file)
            } else if isText, let text {
                definition["body"] = .string(text)
            } else {
                definition["base64Body"] = .string(response.body.base64EncodedString())
            }
        }
        var mapping: [String: JSONValue] = [
            "id": .string(id), "name": .string(name), "request": request, "response": .object(definition),
        ]
        if extractBodies { mapping["persistent"] = .bool(true) }
        return RecordedStub(mapping: .object(mapping), bodyFile: bodyFile)
    }

    private static func isTextual(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/")
            || ["json", "xml", "javascript", "x-www-form-urlencoded", "yaml", "csv"].contains {
                contentType.contains($0)
            }
    }

    private static func fileExtension(_ contentType: String, isText: Bool) -> String {
        if contentType.contains("json") { return "json" }
        if contentType.contains("xml") { return "xml" }
        if contentType.contains("html") { return "html" }
        return isText ? "txt" : "bin"
    }
}
