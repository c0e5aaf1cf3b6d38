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

    /// Whether matching and answering this stub takes no more than comparing text and copying a prepared
    /// response: no body or regex pattern, no scenario, no template or proxy.
    var isCheap: Bool { request.isCheap && scenarioName == nil && response.prepared != nil }
    /// The mapping as JSON (with `id` filled in), returned by the admin API.
    var source: JSONValue
    /// Insertion order: newer stubs win priority ties.
    var sequence = 0
    /// Whether the stub is in a file of the mappings folder (loaded from one, or saved to one).
    var isPersisted = false
    /// The mapping file it was loaded from or saved to, if any: `/__admin/mappings/save` writes an
    /// edited stub back there, so that the file never keeps an older version.
    var sourceFile: URL?
    /// Where the stub was loaded from, for messages: its file under the mappings root
    /// (`mappings/users.json`, or `mappings/all.json mappings[2]` for one of several); nil for a stub
    /// added through the admin API or in code.
    var origin: String?

    /// Reads a mapping; assigns an id when it has none.
    /// - Parameters:
    ///   - json: the mapping.
    ///   - location: where it came from, for messages.
    ///   - globalTemplating: whether every response is a template (the server's global templating).
    ///   - filesDirectory: the files folder a literal `bodyFileName` must name a file in; nil checks
    ///     the name's form only.
    /// - Throws: ``ValuePattern/InvalidMapping`` naming the first problem.
    init(
        json: JSONValue, location: String = "mapping", globalTemplating: Bool = false,
        filesDirectory: URL? = nil
    ) throws {
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
            globalTemplating: globalTemplating, filesDirectory: filesDirectory)
        source = .object(members)
    }

    /// A short description for messages: `"Get user" in mappings/users.json (GET /users/1)` for a stub
    /// loaded from a file, `"get-user" (GET /users/1)` for one added with a name, its id otherwise.
    var label: String {
        var urlText = "any URL"
        switch request.url {
        case .url(let text)?, .urlPath(let text)?: urlText = text
        case .urlPattern(let regex)?, .urlPathPattern(let regex)?: urlText = "/\(regex.pattern)/"
        case .urlPathTemplate(let template)?: urlText = template.text
        case nil: break
        }
        let head =
            switch (name, origin) {
            case (let name?, let origin?): "\"\(name)\" in \(origin)"
            case (let name?, nil): "\"\(name)\""
            case (nil, let origin?): origin
            case (nil, nil): id
            }
        return "\(head) (\(request.method ?? "ANY") \(urlText))"
    }
}
