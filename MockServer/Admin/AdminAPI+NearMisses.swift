import CourierPrimitives
import Foundation

extension AdminAPI {
    /// How many near misses WireMock returns per request.
    static let nearMissCount = 3

    /// `POST /__admin/near-misses/request` (a logged request) and `…/request-pattern` (a request pattern).
    func nearMisses(_ request: ServerRequest, _ rest: [String]) -> ServerResponse {
        guard request.method == "POST", rest.count == 1 else {
            return AdminJSON.error("no admin route \(request.method) \(request.path)", status: 404)
        }
        let body: JSONValue
        switch parseBody(request) {
        case .failure(let response): return response
        case .success(let json): body = json
        }
        switch rest[0] {
        case "request":
            let logged: ServerRequest
            do {
                logged = try AdminJSON.request(fromLogged: body)
            } catch {
                return AdminJSON.error("\(error)", status: 422)
            }
            let entry = RequestJournal.Entry(
                uuid: UUID(), request: logged, loggedAt: Date(), wasMatched: false, stubID: nil, status: 404)
            return AdminJSON.response(.object(["nearMisses": .array(stubNearMisses(entry))]))
        case "request-pattern":
            let pattern: RequestPattern
            do {
                pattern = try RequestPattern.parse(body, at: "requestPattern")
            } catch {
                return AdminJSON.error("\(error)", status: 422)
            }
            var found: [(entry: RequestJournal.Entry, distance: Double)] = []
            for entry in journal.snapshot().entries {
                let (distance, differences) = pattern.distance(RequestView(entry.request))
                if !differences.isEmpty { found.append((entry, distance)) }
            }
            let nearest = found.enumerated().sorted {
                ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset)
            }.prefix(Self.nearMissCount)
            return AdminJSON.response(
                .object([
                    "nearMisses": .array(
                        nearest.map { item in
                            .object([
                                "request": AdminJSON.loggedRequest(item.element.entry),
                                "requestPattern": body,
                                "matchResult": .object(["distance": .double(item.element.distance)]),
                            ])
                        })
                ]))
        default:
            return AdminJSON.error("no admin route \(request.method) \(request.path)", status: 404)
        }
    }

    /// `GET /__admin/requests/unmatched/near-misses`: the near misses of every unmatched journal entry.
    func unmatchedNearMisses() -> ServerResponse {
        let unmatched = journal.snapshot().entries.filter { !$0.wasMatched }
        return AdminJSON.response(.object(["nearMisses": .array(unmatched.flatMap(stubNearMisses))]))
    }

    private func stubNearMisses(_ entry: RequestJournal.Entry) -> [JSONValue] {
        store.nearMisses(RequestView(entry.request), limit: Self.nearMissCount).map { miss in
            .object([
                "request": AdminJSON.loggedRequest(entry),
                "stubMapping": miss.stub.source,
                "matchResult": .object(["distance": .double(miss.distance)]),
            ])
        }
    }
}

extension AdminJSON {
    /// A request from WireMock's logged-request JSON (`url`, `method`, `headers`, `body` or `bodyAsBase64`).
    /// - Throws: ``ValuePattern/InvalidMapping`` naming the field that is missing or malformed.
    static func request(fromLogged json: JSONValue) throws -> ServerRequest {
        guard case .object(let members) = json else {
            throw ValuePattern.InvalidMapping(description: "request must be an object")
        }
        guard let url = members["url"]?.stringValue, url.hasPrefix("/") else {
            throw ValuePattern.InvalidMapping(description: "request.url must be a path such as /users")
        }
        var headers = ServerHeaders()
        if case .object(let fields)? = members["headers"] {
            for name in fields.keys.sorted() {
                switch fields[name] {
                case .array(let values)?:
                    for value in values { headers.add(name: name, value: value.matchText) }
                case .object(let object)?:
                    // WireMock's multi-value form: {"values": [...]}.
                    if case .array(let values)? = object["values"] {
                        for value in values { headers.add(name: name, value: value.matchText) }
                    }
                case let value?:
                    headers.add(name: name, value: value.matchText)
                case nil:
                    break
                }
            }
        }
        if case .object(let cookies)? = members["cookies"], !cookies.isEmpty {
            let pairs = cookies.keys.sorted().map { "\($0)=\(cookies[$0]?.matchText ?? "")" }
            headers.add(name: "Cookie", value: pairs.joined(separator: "; "))
        }
        var body = Data()
        if let base64 = members["bodyAsBase64"]?.stringValue, !base64.isEmpty {
            guard let data = Data(base64Encoded: base64) else {
                throw ValuePattern.InvalidMapping(description: "request.bodyAsBase64 is not valid base64")
            }
            body = data
        } else if let text = members["body"]?.stringValue {
            body = Data(text.utf8)
        }
        return ServerRequest(
            method: (members["method"]?.stringValue ?? "GET").uppercased(), target: url, headers: headers,
            body: body)
    }
}
