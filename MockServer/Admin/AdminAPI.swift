import CourierPrimitives
import Foundation

/// The WireMock-compatible admin API under `/__admin`.
struct AdminAPI: Sendable {
    let store: StubStore
    let journal: RequestJournal
    let recorder: Recorder
    /// Where `/__admin/mappings/save` writes; nil when the server has no mappings folder.
    var mappingsRoot: URL?
    /// Stops the server after the current response (`POST /__admin/shutdown`).
    var requestShutdown: @Sendable () -> Void = {}
    /// The address the server listens on: on loopback, the admin API answers only requests
    /// addressed to loopback (see `crossSiteRefusal`).
    var bindHost = "127.0.0.1"

    static let prefix = "/__admin"

    func handle(_ request: ServerRequest) -> ServerResponse {
        if let refusal = crossSiteRefusal(request) { return refusal }
        let parts = request.path.dropFirst(Self.prefix.count).split(separator: "/").map {
            TargetDecoding.percentDecode($0, plusIsSpace: false)
        }
        let method = request.method
        switch (method, parts.first ?? "") {
        case (_, "mappings"):
            return mappings(request, Array(parts.dropFirst()))
        case ("POST", "reset") where parts.count == 1:
            store.resetToDefaults()
            journal.clear()
            return AdminJSON.response(.object([:]))
        case (_, "requests"):
            return requests(request, Array(parts.dropFirst()))
        case (_, "scenarios"):
            return scenarios(request, Array(parts.dropFirst()))
        case (_, "settings") where parts.count == 1:
            return settings(request)
        case ("POST", "shutdown") where parts.count == 1:
            requestShutdown()
            return AdminJSON.response(.object([:]))
        case (_, "recordings"):
            return recordings(request, Array(parts.dropFirst()))
        case (_, "near-misses"):
            return nearMisses(request, Array(parts.dropFirst()))
        default:
            return AdminJSON.error("no admin route \(method) \(request.path)", status: 404)
        }
    }

    /// A 403 for an admin request a web page made: one whose `Origin` is another site (a
    /// page's `fetch` with `mode: "no-cors"` needs no preflight), or, on a server listening on
    /// loopback, one addressed by a host name other than `localhost` (DNS rebinding: a page's own
    /// name made to point at 127.0.0.1). The admin API can add a stub that serves a file, so it
    /// must not be open to every page the developer visits. Clients that are not browsers send
    /// no `Origin` and address the server as they reached it.
    func crossSiteRefusal(_ request: ServerRequest) -> ServerResponse? {
        if let origin = request.headers["Origin"] {
            let host = URLComponents(string: origin)?.host ?? ""
            let requested = Self.hostName(request.headers["Host"] ?? "")
            guard Self.isLoopback(host) || host.lowercased() == requested.lowercased() else {
                return AdminJSON.error("the admin API does not answer requests from \(origin)", status: 403)
            }
        }
        if Self.isLoopback(bindHost), let host = request.headers["Host"] {
            let name = Self.hostName(host)
            guard Self.isLoopback(name) || Self.isIPLiteral(name) else {
                return AdminJSON.error(
                    "the admin API answers only requests addressed to loopback", status: 403)
            }
        }
        return nil
    }

    /// The host of a `Host` field, without its port or IPv6 brackets.
    static func hostName(_ field: String) -> String {
        let trimmed = field.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") {
            return String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
        }
        return String(trimmed.split(separator: ":", maxSplits: 1).first ?? "")
    }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host == "localhost" || host.hasSuffix(".localhost") || host == "::1"
            || (host.hasPrefix("127.") && isIPLiteral(host))
    }

    static func isIPLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// The request body as JSON, read as strictly as WireMock reads it: a 400 naming the line and
    /// column of the first fault otherwise.
    func parseBody(_ request: ServerRequest) -> AdminResult<JSONValue> {
        guard let data = try? request.bodyData() else {
            return .failure(AdminJSON.error("the request body cannot be read", status: 400))
        }
        do {
            return .success(try JSONValue.parseStrictly(data))
        } catch {
            return .failure(AdminJSON.error("the request body is not valid JSON: \(error)", status: 400))
        }
    }

    private func mapping(from request: ServerRequest, id: String? = nil) -> AdminResult<StubMapping> {
        switch parseBody(request) {
        case .failure(let response):
            return .failure(response)
        case .success(var json):
            if let id, case .object(var members) = json {
                members["id"] = .string(id)
                members["uuid"] = .string(id)
                json = .object(members)
            }
            do {
                return .success(
                    try StubMapping(
                        json: json, globalTemplating: store.globalTemplating,
                        filesDirectory: store.bodyFilesDirectory))
            } catch {
                return .failure(AdminJSON.error("\(error)", status: 422))
            }
        }
    }

    private func mappings(_ request: ServerRequest, _ rest: [String]) -> ServerResponse {
        switch (request.method, rest.count) {
        case ("GET", 0):
            var stubs = store.all
            let total = stubs.count
            if let offset = request.queryValue("offset").flatMap(Int.init), offset > 0 {
                stubs = Array(stubs.dropFirst(offset))
            }
            if let limit = request.queryValue("limit").flatMap(Int.init), limit >= 0 {
                stubs = Array(stubs.prefix(limit))
            }
            return AdminJSON.response(
                .object([
                    "mappings": .array(stubs.map(\.source)), "meta": .object(["total": .int(Int64(total))]),
                ]))
        case ("POST", 0):
            switch mapping(from: request) {
            case .failure(let response): return response
            case .success(let stub):
                store.add(stub)
                return AdminJSON.response(stub.source, status: 201)
            }
        case ("DELETE", 0):
            store.removeAll()
            return AdminJSON.response(.object([:]))
        case ("POST", 1) where rest[0] == "reset":
            store.resetToDefaults()
            return AdminJSON.response(.object([:]))
        case ("POST", 1) where rest[0] == "save":
            return saveMappings()
        case ("POST", 1) where rest[0] == "find-by-metadata" || rest[0] == "remove-by-metadata":
            return byMetadata(request, remove: rest[0] == "remove-by-metadata")
        case ("POST", 1) where rest[0] == "import":
            switch parseBody(request) {
            case .failure(let response): return response
            case .success(let json):
                do {
                    let stubs = try MappingLoader.mappings(
                        in: json, location: "import", globalTemplating: store.globalTemplating,
                        filesDirectory: store.bodyFilesDirectory)
                    let options = json["importOptions"]
                    store.importStubs(
                        stubs, ignoreExisting: options?["duplicatePolicy"]?.stringValue == "IGNORE",
                        deleteOthers: options?["deleteAllNotInImport"]?.boolValue ?? false)
                    return AdminJSON.response(.object([:]))
                } catch {
                    return AdminJSON.error("\(error)", status: 422)
                }
            }
        case ("GET", 1):
            guard let stub = store.stub(id: rest[0]) else {
                return AdminJSON.error("no mapping \(rest[0])", status: 404)
            }
            return AdminJSON.response(stub.source)
        case ("PUT", 1):
            switch mapping(from: request, id: rest[0]) {
            case .failure(let response): return response
            case .success(let stub):
                guard store.replace(id: rest[0], with: stub) else {
                    return AdminJSON.error("no mapping \(rest[0])", status: 404)
                }
                return AdminJSON.response(stub.source)
            }
        case ("DELETE", 1):
            guard store.remove(id: rest[0]) else {
                return AdminJSON.error("no mapping \(rest[0])", status: 404)
            }
            return AdminJSON.response(.object([:]))
        default:
            return AdminJSON.error("no admin route \(request.method) \(request.path)", status: 404)
        }
    }

    private func requests(_ request: ServerRequest, _ rest: [String]) -> ServerResponse {
        let (entries, dropped) = journal.snapshot()
        let meta: JSONValue = .object(["total": .int(Int64(entries.count)), "dropped": .int(Int64(dropped))])
        switch (request.method, rest.first) {
        case ("GET", nil):
            let stubs = Dictionary(store.all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var events = entries.reversed().map {
                AdminJSON.serveEvent($0, stub: $0.stubID.flatMap { stubs[$0] })
            }
            if let limit = request.queryValue("limit").flatMap(Int.init), limit >= 0 {
                events = Array(events.prefix(limit))
            }
            return AdminJSON.response(
                .object([
                    "requests": .array(events), "meta": meta,
                    "requestJournalDisabled": .bool(journal.isDisabled),
                    "droppedRequests": .int(Int64(dropped)),
                ]))
        case ("DELETE", nil):
            journal.clear()
            return AdminJSON.response(.object([:]))
        case ("POST", "count"?), ("POST", "find"?):
            let pattern: RequestPattern
            switch parseBody(request) {
            case .failure(let response): return response
            case .success(let json):
                do {
                    pattern = try RequestPattern.parse(json, at: "criteria")
                } catch {
                    return AdminJSON.error("\(error)", status: 422)
                }
            }
            let found = entries.filter { pattern.matches(RequestView($0.request)) }
            if rest.first == "count" {
                return AdminJSON.response(
                    .object([
                        "count": .int(Int64(found.count)),
                        "requestJournalDisabled": .bool(journal.isDisabled),
                        "droppedRequests": .int(Int64(dropped)),
                    ]))
            }
            return AdminJSON.response(
                .object([
                    "requests": .array(found.map(AdminJSON.loggedRequest)),
                    "requestJournalDisabled": .bool(journal.isDisabled),
                    "droppedRequests": .int(Int64(dropped)),
                ]))
        case ("GET", "unmatched"?) where rest.count == 2 && rest[1] == "near-misses":
            return unmatchedNearMisses()
        case ("GET", "unmatched"?):
            let unmatched = entries.filter { !$0.wasMatched }
            return AdminJSON.response(
                .object([
                    "requests": .array(unmatched.map(AdminJSON.loggedRequest)),
                    "requestJournalDisabled": .bool(journal.isDisabled),
                    "droppedRequests": .int(Int64(dropped)),
                ]))
        case ("GET", let id?) where rest.count == 1:
            guard let entry = entries.first(where: { $0.id == id }) else {
                return AdminJSON.error("no request \(id)", status: 404)
            }
            return AdminJSON.response(
                AdminJSON.serveEvent(entry, stub: entry.stubID.flatMap { store.stub(id: $0) }))
        default:
            return AdminJSON.error("no admin route \(request.method) \(request.path)", status: 404)
        }
    }

    private func scenarios(_ request: ServerRequest, _ rest: [String]) -> ServerResponse {
        switch (request.method, rest.count) {
        case ("GET", 0):
            let list = store.scenarios().map { scenario -> JSONValue in
                .object([
                    "id": .string(scenario.name), "name": .string(scenario.name),
                    "state": .string(scenario.state),
                    "possibleStates": .array(scenario.possibleStates.map(JSONValue.string)),
                ])
            }
            return AdminJSON.response(.object(["scenarios": .array(list)]))
        case ("POST", 1) where rest[0] == "reset":
            store.resetScenarios()
            return AdminJSON.response(.object([:]))
        case ("PUT", 2) where rest[1] == "state":
            let newState: String
            switch parseBody(request) {
            case .failure(let response): return response
            case .success(let json):
                guard let state = json["state"]?.stringValue else {
                    return AdminJSON.error("the body must be {\"state\": \"...\"}", status: 400)
                }
                newState = state
            }
            guard store.setScenario(rest[0], to: newState) else {
                return AdminJSON.error("no scenario named \(rest[0])", status: 404)
            }
            return AdminJSON.response(.object([:]))
        default:
            return AdminJSON.error("no admin route \(request.method) \(request.path)", status: 404)
        }
    }
}

/// A parsed admin request body, or the error response to send instead.
enum AdminResult<Value> {
    case success(Value)
    case failure(ServerResponse)
}
