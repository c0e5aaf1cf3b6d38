import CourierPrimitives
import Foundation

extension Pact {
    /// Reads a pact file's text (specification version 4, 3 or 2).
    /// - Throws: `PactError` naming the place in the document: malformed JSON (with line and column),
    ///   a missing or mistyped field, an interaction type other than synchronous HTTP.
    public init(data: Data) throws(PactError) {
        let json: JSONValue
        do {
            json = try JSONValue.parseStrictly(data)
        } catch {
            throw PactError(path: "$", reason: "\(error)")
        }
        try self.init(json: json)
    }

    /// Reads a pact file.
    /// - Throws: `PactError` when the file cannot be read or is not a pact.
    public init(contentsOf url: URL) throws(PactError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw PactError(path: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
        do {
            try self.init(data: data)
        } catch {
            throw PactError(path: "\(url.path) \(error.path)", reason: error.reason)
        }
    }

    /// Reads a pact from its JSON document.
    /// - Throws: `PactError` naming the place in the document.
    public init(json: JSONValue) throws(PactError) {
        let root = DocumentReader(json)
        let consumer = try root.required("consumer").required("name").string()
        let provider = try root.required("provider").required("name").string()
        var metadata: [String: JSONValue] = [:]
        if let reader = root.member("metadata") {
            for (key, member) in try reader.object() { metadata[key] = member.value }
        }
        let version = Pact.specificationVersion(in: metadata)
        let interactions = try (root.member("interactions")?.array() ?? []).map {
            (reader) throws(PactError) in try PactInteraction(reader, version: version)
        }
        self.init(
            consumer: consumer, provider: provider, interactions: interactions, specificationVersion: version,
            metadata: metadata)
    }

    /// The version a file's metadata names; `3.0.0` when it names none (as Pact's own readers assume).
    static func specificationVersion(in metadata: [String: JSONValue]) -> String {
        for key in ["pactSpecification", "pact-specification"] {
            if let version = metadata[key]?["version"]?.stringValue { return version }
        }
        return metadata["pactSpecificationVersion"]?.stringValue ?? "3.0.0"
    }
}

extension PactInteraction {
    init(_ reader: DocumentReader, version: String) throws(PactError) {
        if let type = reader.member("type") {
            let name = try type.string()
            guard name == "Synchronous/HTTP" else {
                throw type.fault("'\(name)' interactions are not supported; only Synchronous/HTTP ones")
            }
        }
        let description = try reader.required("description").string()
        var states: [ProviderState] = []
        if let list = reader.member("providerStates") {
            for item in try list.array() {
                var params: [String: JSONValue] = [:]
                for (key, value) in try item.member("params")?.object() ?? [] { params[key] = value.value }
                states.append(ProviderState(try item.required("name").string(), params: params))
            }
        } else if let single = reader.member("providerState") {
            states.append(ProviderState(try single.string()))
        }
        let v2 = version.hasPrefix("2") || version.hasPrefix("1")
        let requestReader = try reader.required("request")
        let responseReader = try reader.required("response")
        let requestRules = try MatchingRules(in: requestReader, v2: v2)
        let responseRules = try MatchingRules(in: responseReader, v2: v2)
        let requestHeaders = try PactHeaders(requestReader.member("headers"))
        let responseHeaders = try PactHeaders(responseReader.member("headers"))
        let request = PactRequest(
            method: try requestReader.required("method").string(),
            path: try requestReader.member("path")?.string() ?? "/",
            query: try Self.query(requestReader.member("query")),
            headers: requestHeaders,
            body: try PactBody(requestReader.member("body"), headers: requestHeaders),
            matchingRules: requestRules, generators: requestReader.member("generators")?.value)
        let response = PactResponse(
            status: try responseReader.member("status")?.int() ?? 200, headers: responseHeaders,
            body: try PactBody(responseReader.member("body"), headers: responseHeaders),
            matchingRules: responseRules, generators: responseReader.member("generators")?.value)
        self.init(
            description: description, providerStates: states, request: request, response: response,
            key: try reader.member("key")?.string(),
            pending: reader.member("pending")?.value.boolValue ?? false)
    }

    /// A V3/V4 query (`{"a": ["1"]}`, or a string per name) or a V2 query string (`a=1&b=2`).
    static func query(_ reader: DocumentReader?) throws(PactError) -> [(name: String, values: [String])] {
        guard let reader else { return [] }
        if case .string(let text) = reader.value {
            var query: [(name: String, values: [String])] = []
            for pair in text.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let value =
                    parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
                if let index = query.firstIndex(where: { $0.name == name }) {
                    query[index].values.append(value)
                } else {
                    query.append((name, [value]))
                }
            }
            return query
        }
        return try reader.object().map { (entry) throws(PactError) in
            if case .array = entry.reader.value {
                return (
                    entry.key, try entry.reader.array().map { (item) throws(PactError) in try item.string() }
                )
            }
            return (entry.key, [try entry.reader.string()])
        }
    }
}

extension PactHeaders {
    /// Headers as V4 writes them (`{"Accept": ["application/json"]}`) or V2/V3 (`{"Accept": "…"}`).
    init(_ reader: DocumentReader?) throws(PactError) {
        self.init()
        guard let reader else { return }
        for (name, value) in try reader.object() {
            if case .array = value.value {
                add(name, values: try value.array().map { (item) throws(PactError) in try item.string() })
            } else {
                add(name, values: [try value.string()])
            }
        }
    }
}

extension PactBody {
    /// A V4 body (`{"content": …, "contentType": …, "encoded": …}`) or a V2/V3 body (the JSON value
    /// itself, typed by the Content-Type header).
    init?(_ reader: DocumentReader?, headers: PactHeaders) throws(PactError) {
        guard let reader else { return nil }
        let headerType = headers["Content-Type"]?.first
        if case .object(let members) = reader.value, members["content"] != nil,
            members.keys.allSatisfy({ ["content", "contentType", "encoded", "contentTypeHint"].contains($0) })
        {
            let contentType = try reader.member("contentType")?.string() ?? headerType
            guard let content = reader.member("content") else {
                self.init(.text(""), contentType: contentType)
                return
            }
            switch reader.member("encoded")?.value ?? .bool(false) {
            case .string(let encoding) where encoding.lowercased() == "base64":
                guard let data = Data(base64Encoded: try content.string()) else {
                    throw content.fault("is not base64")
                }
                self.init(data: data, contentType: contentType)
            case .string(let encoding) where encoding.lowercased() == "json":
                self.init(
                    data: Data(try content.string().utf8), contentType: contentType ?? "application/json")
            case .bool(false), .string:
                if case .string(let text) = content.value, !PactBody.isJSON(contentType) {
                    self.init(.text(text), contentType: contentType)
                } else {
                    self.init(.json(content.value), contentType: contentType ?? "application/json")
                }
            default:
                throw reader.fault("'encoded' must be false, \"base64\" or \"json\"")
            }
            return
        }
        if case .string(let text) = reader.value, !PactBody.isJSON(headerType) {
            self.init(.text(text), contentType: headerType)
        } else {
            self.init(.json(reader.value), contentType: headerType ?? "application/json")
        }
    }
}
