import CourierPrimitives
import Foundation

/// A pact: what one consumer expects of one provider, as a list of interactions, in the terms of
/// the Pact Specification (version 4 written; versions 4, 3 and 2 read).
///
/// ```swift
/// let pact = try Pact(data: Data(contentsOf: URL(fileURLWithPath: "pacts/app-notes.json")))
/// let descriptions = pact.interactions.map(\.description)
/// ```
public struct Pact: Sendable, Hashable {
    /// The consumer's name.
    public var consumer: String
    /// The provider's name.
    public var provider: String
    /// The interactions, in file order.
    public var interactions: [PactInteraction]
    /// The specification version the pact was read as (`4.0`, `3.0.0`, `2.0.0`); a written pact is `4.0`.
    public var specificationVersion: String
    /// The file's other metadata, kept as read.
    public var metadata: [String: JSONValue]

    /// Creates a pact.
    public init(
        consumer: String, provider: String, interactions: [PactInteraction] = [],
        specificationVersion: String = "4.0", metadata: [String: JSONValue] = [:]
    ) {
        self.consumer = consumer
        self.provider = provider
        self.interactions = interactions
        self.specificationVersion = specificationVersion
        self.metadata = metadata
    }
}

/// One provider state an interaction needs, such as `a note exists` with `{"id": "n1"}`.
public struct ProviderState: Sendable, Hashable {
    /// The state's name.
    public var name: String
    /// Its parameters.
    public var params: [String: JSONValue]

    /// Creates a provider state.
    public init(_ name: String, params: [String: JSONValue] = [:]) {
        self.name = name
        self.params = params
    }
}

/// One synchronous HTTP interaction: a request and the response it must get.
public struct PactInteraction: Sendable, Hashable {
    /// What the interaction is, unique within the pact together with its provider states.
    public var description: String
    /// The states the provider must be in first.
    public var providerStates: [ProviderState]
    /// The request.
    public var request: PactRequest
    /// The response expected.
    public var response: PactResponse
    /// The interaction's key, when the file gave one.
    public var key: String?
    /// Whether the interaction is pending (its failures do not fail a verification).
    public var pending: Bool

    /// Creates an interaction.
    public init(
        description: String, providerStates: [ProviderState] = [], request: PactRequest,
        response: PactResponse, key: String? = nil, pending: Bool = false
    ) {
        self.description = description
        self.providerStates = providerStates
        self.request = request
        self.response = response
        self.key = key
        self.pending = pending
    }

    /// Whether `other` is the same interaction (same description and provider states), which a
    /// merge replaces rather than adds.
    public func isSameInteraction(as other: PactInteraction) -> Bool {
        description == other.description && providerStates == other.providerStates
    }
}

/// Header fields by name, each with its values; names compare without regard to case.
public struct PactHeaders: Sendable, Hashable, Sequence {
    /// The fields in order.
    public private(set) var fields: [(name: String, values: [String])]

    /// Creates headers.
    public init(_ fields: [(name: String, values: [String])] = []) {
        self.fields = []
        for field in fields { add(field.name, values: field.values) }
    }

    /// The values of `name`, or nil when absent.
    public subscript(name: String) -> [String]? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.values
    }

    /// Adds values to `name`, after any it has.
    public mutating func add(_ name: String, values: [String]) {
        if let index = fields.firstIndex(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
            fields[index].values += values
        } else {
            fields.append((name, values))
        }
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[(name: String, values: [String])]> {
        fields.makeIterator()
    }

    public static func == (lhs: PactHeaders, rhs: PactHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.values == $1.values }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.values)
        }
    }
}

/// A request or response body.
public struct PactBody: Sendable, Hashable {
    /// The content.
    public enum Content: Sendable, Hashable {
        /// A JSON document.
        case json(JSONValue)
        /// Text of another media type.
        case text(String)
        /// Bytes (base64 in the file).
        case bytes(Data)
    }

    /// The content.
    public var content: Content
    /// Its media type, such as `application/json`.
    public var contentType: String?

    /// Creates a body.
    public init(_ content: Content, contentType: String? = nil) {
        self.content = content
        self.contentType = contentType
    }

    /// A JSON body of type `application/json`.
    public static func json(_ value: JSONValue) -> PactBody {
        PactBody(.json(value), contentType: "application/json")
    }

    /// The bytes sent on the wire.
    public var data: Data {
        switch content {
        case .json(let value): value.serialized()
        case .text(let text): Data(text.utf8)
        case .bytes(let data): data
        }
    }

    /// Reads `data` sent with `contentType`: JSON for a JSON media type, else text when UTF-8,
    /// else bytes.
    public init(data: Data, contentType: String?) {
        if PactBody.isJSON(contentType), let value = try? JSONValue.parseStrictly(data) {
            self.init(.json(value), contentType: contentType)
        } else if let text = String(data: data, encoding: .utf8) {
            self.init(.text(text), contentType: contentType)
        } else {
            self.init(.bytes(data), contentType: contentType)
        }
    }

    /// Whether `contentType` is JSON (`application/json`, `application/problem+json`, …).
    public static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let media = contentType.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let media else { return false }
        return media == "application/json" || media.hasSuffix("+json")
    }
}

/// The request of an interaction.
public struct PactRequest: Sendable, Hashable {
    /// The method, upper case.
    public var method: String
    /// The path, not percent-encoded.
    public var path: String
    /// The query parameters, each with its values, in order.
    public var query: [(name: String, values: [String])]
    /// The header fields.
    public var headers: PactHeaders
    /// The body, if any.
    public var body: PactBody?
    /// The matching rules for the request's parts.
    public var matchingRules: MatchingRules
    /// The generators, kept as read.
    public var generators: JSONValue?

    /// Creates a request.
    public init(
        method: String, path: String, query: [(name: String, values: [String])] = [],
        headers: PactHeaders = PactHeaders(), body: PactBody? = nil,
        matchingRules: MatchingRules = MatchingRules(),
        generators: JSONValue? = nil
    ) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.matchingRules = matchingRules
        self.generators = generators
    }

    public static func == (lhs: PactRequest, rhs: PactRequest) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.headers == rhs.headers && lhs.body == rhs.body
            && lhs.matchingRules == rhs.matchingRules && lhs.generators == rhs.generators
            && lhs.query.count == rhs.query.count
            && zip(lhs.query, rhs.query).allSatisfy { $0.name == $1.name && $0.values == $1.values }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(path)
        hasher.combine(headers)
        hasher.combine(body)
    }
}

/// The response an interaction expects.
public struct PactResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: PactHeaders
    /// The body, if any.
    public var body: PactBody?
    /// The matching rules for the response's parts.
    public var matchingRules: MatchingRules
    /// The generators, kept as read.
    public var generators: JSONValue?

    /// Creates a response.
    public init(
        status: Int, headers: PactHeaders = PactHeaders(), body: PactBody? = nil,
        matchingRules: MatchingRules = MatchingRules(), generators: JSONValue? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.matchingRules = matchingRules
        self.generators = generators
    }
}
