import CourierPrimitives

/// The keys each object of a mapping may hold. Any other key is refused with where it is: a key the server
/// does not implement must never be silently ignored (a stub that looks templated but is served raw).
enum MappingKeys {
    static let mapping: Set<String> = [
        "id", "uuid", "name", "priority", "scenarioName", "requiredScenarioState", "newScenarioState",
        "request",
        "response",
        // Descriptive only; kept in the mapping and otherwise ignored, as WireMock does.
        "metadata", "persistent", "insertionIndex",
    ]
    static let request: Set<String> = [
        "method", "url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate", "queryParameters",
        "headers", "cookies", "bodyPatterns", "multipartPatterns", "basicAuthCredentials",
    ]
    static let response: Set<String> = [
        "status", "statusMessage", "headers", "body", "jsonBody", "base64Body", "bodyFileName",
        "fixedDelayMilliseconds", "delayDistribution", "chunkedDribbleDelay", "eventStream", "fault",
        "transformers",
        "transformerParameters", "proxyBaseUrl", "additionalProxyRequestHeaders", "removeProxyRequestHeaders",
        "proxyUrlPrefixToRemove",
    ]
    static let multipart: Set<String> = ["name", "matchingType", "headers", "bodyPatterns"]
    static let basicAuth: Set<String> = ["username", "password"]
    static let dribble: Set<String> = ["numberOfChunks", "totalDuration"]

    /// WireMock features that are recognised but not implemented, and what to say about them.
    static let unimplemented: [String: String] = [
        "postServeActions": "post-serve actions (webhooks) are not implemented",
        "serveEventListeners": "serve event listeners are not implemented",
        "customMatcher": "custom matchers are not implemented",
        "formParameters": "form parameter matching is not implemented",
        "pathParameters": "path parameter matching is not implemented",
        "host": "host matching is not implemented",
        "port": "port matching is not implemented",
        "scheme": "scheme matching is not implemented",
        "clientIp": "client IP matching is not implemented",
    ]

    /// Refuses the first key of `members` that is not in `allowed`.
    /// - Throws: ``ValuePattern/InvalidMapping`` naming the key's path, e.g. `mapping.response.proxyBaseUrl`.
    static func check(_ members: [String: JSONValue], allowed: Set<String>, at location: String) throws {
        for key in members.keys.sorted() where !allowed.contains(key) {
            if let reason = unimplemented[key] {
                throw ValuePattern.InvalidMapping(
                    description: "\(location).\(key): not supported (\(reason))")
            }
            throw ValuePattern.InvalidMapping(
                description:
                    "\(location).\(key): unknown key; expected one of \(allowed.sorted().joined(separator: ", "))"
            )
        }
    }

    /// Accepts a `transformers` list naming only `response-template`; returns whether it names it.
    static func checkTransformers(_ value: JSONValue?, at location: String) throws -> Bool {
        guard let value else { return false }
        guard case .array(let names) = value else {
            throw ValuePattern.InvalidMapping(
                description: "\(location).transformers must be an array of names")
        }
        for (index, name) in names.enumerated() where name.stringValue != TemplatedResponse.transformerName {
            throw ValuePattern.InvalidMapping(
                description:
                    "\(location).transformers[\(index)]: transformer \"\(name.matchText)\" is not supported (only \"\(TemplatedResponse.transformerName)\" is)"
            )
        }
        return !names.isEmpty
    }
}
