import CourierPrimitives
import Foundation

/// One WireMock stub mapping: a request pattern, a response, a priority and optional scenario.
struct StubMapping: Sendable {
    static let defaultPriority = 5
    static let startedState = "Started"

    let id: String
    var name: String?
    var priority: Int
    var scenarioName: String?
    var requiredScenarioState: String?
    var newScenarioState: String?
    var request: RequestPattern
    var response: ResponseDefinition
    /// The mapping as JSON (with `id` filled in), returned by the admin API.
    var source: JSONValue
    /// Insertion order: newer stubs win priority ties.
    var sequence = 0
    /// Whether the stub is in a file of the mappings folder (loaded from one, or saved to one).
    var isPersisted = false
    /// The mapping file it was loaded from or saved to, if any: `/__admin/mappings/save` writes an
    /// edited stub back there, so that the file never keeps an older version.
    var sourceFile: URL?

    /// Reads a mapping; assigns an id when it has none.
    /// - Parameters:
    ///   - json: the mapping.
    ///   - location: where it came from, for messages.
    ///   - globalTemplating: whether every response is a template (the server's global templating).
    /// - Throws: ``ValuePattern/InvalidMapping`` naming the first problem.
    init(json: JSONValue, location: String = "mapping", globalTemplating: Bool = false) throws {
        guard case .object(var members) = json else {
            throw ValuePattern.InvalidMapping(description: "\(location) must be a JSON object")
        }
        try MappingKeys.check(members, allowed: MappingKeys.mapping, at: location)
        let id = members["id"]?.stringValue ?? members["uuid"]?.stringValue ?? UUID().uuidString.lowercased()
        self.id = id
        members["id"] = .string(id)
        members["uuid"] = .string(id)
        name = members["name"]?.stringValue
        if let priority = members["priority"] {
            guard let value = priority.intValue, value >= 1 else {
                throw ValuePattern.InvalidMapping(description: "\(location).priority must be an integer ≥ 1")
            }
            self.priority = value
        } else {
            priority = Self.defaultPriority
        }
        scenarioName = members["scenarioName"]?.stringValue
        requiredScenarioState = members["requiredScenarioState"]?.stringValue
        newScenarioState = members["newScenarioState"]?.stringValue
        if scenarioName == nil && (requiredScenarioState != nil || newScenarioState != nil) {
            throw ValuePattern.InvalidMapping(description: "\(location): scenario states need a scenarioName")
        }
        guard let requestJSON = members["request"] else {
            throw ValuePattern.InvalidMapping(description: "\(location): missing request")
        }
        request = try RequestPattern.parse(requestJSON, at: "\(location).request")
        response = try ResponseDefinition.parse(
            members["response"] ?? .object([:]), at: "\(location).response",
            globalTemplating: globalTemplating)
        source = .object(members)
    }

    /// A short description for messages, e.g. `"get-user" (GET /users/1)`.
    var label: String {
        var urlText = "any URL"
        switch request.url {
        case .url(let text)?, .urlPath(let text)?: urlText = text
        case .urlPattern(let regex)?, .urlPathPattern(let regex)?: urlText = "/\(regex.pattern)/"
        case .urlPathTemplate(let parts)?: urlText = parts.joined(separator: "/")
        case nil: break
        }
        let head = name.map { "\"\($0)\"" } ?? id
        return "\(head) (\(request.method ?? "ANY") \(urlText))"
    }
}
