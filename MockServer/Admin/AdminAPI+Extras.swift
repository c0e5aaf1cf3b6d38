import CourierPrimitives
import Foundation

extension AdminAPI {
    /// `POST /__admin/mappings/save`: writes the stubs not yet in the mappings folder: an edited
    /// one back into the file it came from, a new one into a file of its own.
    func saveMappings() -> ServerResponse {
        guard let mappingsRoot else {
            return AdminJSON.error(
                "the server has no mappings folder to save to (start it with one)", status: 409)
        }
        let all = store.all
        let unsaved = all.filter { !$0.isPersisted }
        let saved: [String: URL]
        do {
            saved = try MappingLoader.save(unsaved, all: all, to: mappingsRoot)
        } catch {
            return AdminJSON.error("cannot save mappings: \(error)", status: 500)
        }
        store.markPersisted(saved)
        return AdminJSON.response(.object([:]))
    }

    /// `POST /__admin/mappings/find-by-metadata` and `remove-by-metadata`: a matcher applied to each stub's
    /// `metadata` (as JSON); stubs without metadata never match.
    func byMetadata(_ request: ServerRequest, remove: Bool) -> ServerResponse {
        let pattern: ValuePattern
        switch parseBody(request) {
        case .failure(let response): return response
        case .success(let json):
            do {
                pattern = try ValuePattern.parse(json, at: "metadataPattern")
            } catch {
                return AdminJSON.error("\(error)", status: 422)
            }
        }
        let matches: @Sendable (StubMapping) -> Bool = { stub in
            guard let metadata = stub.source["metadata"] else { return false }
            return pattern.matches(body: metadata.serialized())
        }
        if remove {
            store.removeAll(where: matches)
            return AdminJSON.response(.object([:]))
        }
        let found = store.all.filter(matches)
        return AdminJSON.response(
            .object([
                "mappings": .array(found.map(\.source)), "meta": .object(["total": .int(Int64(found.count))]),
            ]))
    }

    /// `GET`/`POST`/`PUT /__admin/settings`: the global delays.
    func settings(_ request: ServerRequest) -> ServerResponse {
        switch request.method {
        case "GET":
            return AdminJSON.response(.object(["settings": store.settings.json]))
        case "POST", "PUT":
            switch parseBody(request) {
            case .failure(let response): return response
            case .success(let json):
                do {
                    store.settings = try Self.parseSettings(json)
                } catch {
                    return AdminJSON.error("\(error)", status: 422)
                }
                return AdminJSON.response(.object([:]))
            }
        default:
            return AdminJSON.error("no admin route \(request.method) \(request.path)", status: 404)
        }
    }

    static func parseSettings(_ json: JSONValue) throws -> StubStore.Settings {
        guard case .object(var members) = json else {
            throw ValuePattern.InvalidMapping(description: "settings must be an object")
        }
        // WireMock's clients post either the settings or {"settings": {...}}.
        if case .object(let inner)? = members["settings"], members.count == 1 { members = inner }
        try MappingKeys.check(members, allowed: ["fixedDelay", "delayDistribution"], at: "settings")
        var settings = StubStore.Settings(json: .object(members.filter { $0.value != .null }))
        if let delay = members["fixedDelay"], delay != .null {
            guard let value = delay.doubleValue, value >= 0, value <= ResponseDefinition.maxDelayMilliseconds
            else {
                throw ValuePattern.InvalidMapping(
                    description:
                        "settings.fixedDelay must be a number from 0 to \(Int(ResponseDefinition.maxDelayMilliseconds))"
                )
            }
            settings.fixedDelay = value
        }
        if let distribution = members["delayDistribution"], distribution != .null {
            settings.delayDistribution = try ResponseDefinition.parseDistribution(
                distribution, "settings.delayDistribution")
        }
        return settings
    }
}
