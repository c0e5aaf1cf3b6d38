import CourierPrimitives
import Foundation
import MockServer

/// A provider of the README's notes API (`Tests/MockServerContractTests/ExampleAPI/NotesAPI.swift`), written
/// by hand as a server team would: faithful to the declaration, or with one planted drift, for
/// tests of provider verification (`verify`, `verify --pact`).
///
/// It keeps notes in memory (seeded with `n1`), takes `Bearer t0ken` on the operations that need a
/// token, and refuses what the declaration refuses.
public struct DriftingProvider: HTTPHandler {
    /// The token it accepts.
    public static let token = "t0ken"

    /// One way the provider breaks the declaration.
    public enum Drift: String, CaseIterable, Sendable {
        /// A note has no `text`.
        case removedField
        /// `pinned` is the string "yes", not a boolean.
        case changedType
        /// Creating a note answers 200, not the declared 201.
        case wrongStatus
        /// Creating and deleting need no token.
        case missingAuthCheck
        /// A note's `color` is "purple", outside the declared enumeration.
        case enumOutside
        /// JSON answers say `text/plain`.
        case wrongContentType
        /// A note's `id` is null.
        case nullInRequired
        /// A note's `created` is "yesterday", not a date-time.
        case brokenFormat
        /// A `limit` out of range answers 500, a status the declaration does not list.
        case undeclaredStatus
        /// A note's `tags` holds a number.
        case arrayItemWrongType
        /// An unknown id answers 200 with a made-up note instead of 404.
        case missing404
        /// A note's `id` has a space and a `!`, which its pattern refuses.
        case idBreaksPattern
        /// A note's `text` is empty, shorter than the declared minimum.
        case lengthBroken
        /// `limit=50`, the declared maximum, is refused with 400 (an off-by-one).
        case boundaryRefused
        /// Leaving out the optional `limit` is refused with 400.
        case optionalRequired
        /// A note carries `archived`, a property the declaration does not list (reported by a
        /// strict verification only: an added field breaks no client that ignores it).
        case extraField
    }

    private let drift: Drift?
    private let notes = Locked<[String: [String: JSONValue]]>([
        "n1": DriftingProvider.note(id: "n1", text: "Buy milk", pinned: false, color: "yellow")
    ])
    private let counter = Locked(1)

    /// A provider with `drift` planted, or a faithful one when it is nil.
    public init(drift: Drift? = nil) { self.drift = drift }

    public func handle(_ request: ServerRequest) -> ServerResponse? {
        let segments = request.path.split(separator: "/").map(String.init)
        guard segments.first == "notes", segments.count <= 2 else { return nil }
        let id = segments.count == 2 ? segments[1].removingPercentEncoding ?? segments[1] : nil
        switch (request.method, id) {
        case ("GET", nil), ("HEAD", nil): return list(request)
        case ("GET", let id?): return one(id)
        case ("POST", nil): return create(request)
        case ("DELETE", let id?): return delete(id, request)
        default: return error(405, "method_not_allowed", "not here")
        }
    }

    private func list(_ request: ServerRequest) -> ServerResponse {
        let limitText = request.query.first { $0.name == "limit" }?.value
        if limitText == nil, drift == .optionalRequired {
            return error(400, "bad_request", "limit is required")
        }
        let limit = limitText.map { Int($0) } ?? 20
        guard let limit, (1...(drift == .boundaryRefused ? 49 : 50)).contains(limit) else {
            return error(drift == .undeclaredStatus ? 500 : 400, "bad_request", "limit must be 1 to 50")
        }
        let tag = request.query.first { $0.name == "tag" }?.value
        let all = notes.withLock { $0 }.sorted { $0.key > $1.key }.map(\.value)
        let chosen = all.filter { note in
            guard let tag else { return true }
            guard case .array(let tags)? = note["tags"] else { return false }
            return tags.contains(.string(tag))
        }
        return json(.array(chosen.prefix(limit).map { .object(drifted($0)) }))
    }

    private func one(_ id: String) -> ServerResponse {
        if let note = notes.withLock({ $0[id] }) { return json(.object(drifted(note))) }
        if drift == .missing404 {
            return json(.object(drifted(Self.note(id: id, text: "?", pinned: false, color: "blue"))))
        }
        return error(404, "not_found", "no note \(id)")
    }

    private func create(_ request: ServerRequest) -> ServerResponse {
        if let refusal = unauthorized(request) { return refusal }
        let type = request.headers["Content-Type"]?.split(separator: ";").first.map(String.init)
        guard type == "application/json" else { return error(400, "bad_request", "send JSON") }
        guard case .object(let body)? = try? JSONValue.parse(request.body),
            case .string(let text)? = body["text"], (1...500).contains(text.count)
        else { return error(400, "bad_request", "body.text must have 1 to 500 characters") }
        var pinned = false
        if let value = body["pinned"] {
            guard case .bool(let flag) = value else { return error(400, "bad_request", "body.pinned") }
            pinned = flag
        }
        var color = "yellow"
        if let value = body["color"] {
            guard case .string(let name) = value, ["yellow", "green", "blue"].contains(name) else {
                return error(400, "bad_request", "body.color")
            }
            color = name
        }
        let id = "n\(counter.withLock { $0 += 1; return $0 })"
        let note = Self.note(id: id, text: text, pinned: pinned, color: color)
        notes.withLock { $0[id] = note }
        return json(.object(drifted(note)), status: drift == .wrongStatus ? 200 : 201)
    }

    private func delete(_ id: String, _ request: ServerRequest) -> ServerResponse {
        if let refusal = unauthorized(request) { return refusal }
        guard notes.withLock({ $0.removeValue(forKey: id) }) != nil else {
            return error(404, "not_found", "no note \(id)")
        }
        return ServerResponse(status: 204)
    }

    private func unauthorized(_ request: ServerRequest) -> ServerResponse? {
        if drift == .missingAuthCheck || request.headers["Authorization"] == "Bearer \(Self.token)" {
            return nil
        }
        return error(401, "unauthorized", "a bearer token is required")
    }

    /// A note as the declaration describes it.
    static func note(id: String, text: String, pinned: Bool, color: String) -> [String: JSONValue] {
        [
            "id": .string(id), "text": .string(text), "pinned": .bool(pinned), "color": .string(color),
            "tags": .array([.string("home")]), "created": .string("2026-01-01T10:00:00Z"),
        ]
    }

    /// `note` with the planted drift, if it changes notes.
    private func drifted(_ note: [String: JSONValue]) -> [String: JSONValue] {
        var note = note
        switch drift {
        case .removedField: note["text"] = nil
        case .changedType: note["pinned"] = .string("yes")
        case .enumOutside: note["color"] = .string("purple")
        case .nullInRequired: note["id"] = .null
        case .brokenFormat: note["created"] = .string("yesterday")
        case .arrayItemWrongType: note["tags"] = .array([.int(7)])
        case .idBreaksPattern: note["id"] = .string("n 1!")
        case .lengthBroken: note["text"] = .string("")
        case .extraField: note["archived"] = .bool(false)
        default: break
        }
        return note
    }

    private func json(_ value: JSONValue, status: Int = 200) -> ServerResponse {
        var response = ServerResponse.json(value.serialized(), status: status)
        if drift == .wrongContentType { response.headers = ["Content-Type": "text/plain"] }
        return response
    }

    private func error(_ status: Int, _ code: String, _ message: String) -> ServerResponse {
        json(.object(["error": .string(code), "message": .string(message)]), status: status)
    }
}
