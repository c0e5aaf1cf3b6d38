import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import Foundation
import MockServer

// A declared notes API and a provider of it that can drift from the declaration in one way at a
// time, for the verifier's tests.

struct Note: Codable, Sendable, SchemaDescribing {
    var id: String
    var text: String
    var tags: [String]
    var state: String
    var views: Int
    var created: Date
    static let propertySchemas: [String: Schema] = [
        "id": .identifier, "text": .text(1, 500), "state": .enumeration(["draft", "published"]),
    ]
}

struct NewNote: Codable, Sendable, SchemaDescribing {
    var text: String
    static let propertySchemas: [String: Schema] = ["text": .text(1, 500)]
}

struct Problem: Codable, Sendable, SchemaDescribing {
    var error: String
    var message: String
    static let propertySchemas: [String: Schema] = [:]
}

enum NotesAPI: API {
    static var errorSchema: Schema? { .of(Problem.self) }

    static var list: Endpoint<[Note]> { endpoint(.get, "/notes", "Notes, newest first") {} }

    static func note(id: String) -> Endpoint<Note> {
        endpoint(.get, "/notes/{id}", "One note", auth: true, errors: [401, 404]) {
            Path("id", id, .identifier)
        }
    }

    static func create(_ note: NewNote) -> Endpoint<Note> {
        endpoint(.post, "/notes", "Write a note", status: 201) { Body(note) }
    }

    static var samples: [any EndpointDescribing] {
        [list, note(id: "n1"), create(NewNote(text: "Buy milk"))]
    }
}

/// One way the provider breaks its declaration.
enum Drift: String, CaseIterable, Sendable {
    case removedField, changedType, wrongStatus, missingAuthCheck, enumOutside, wrongContentType,
        nullInRequired
    case brokenFormat, arrayBecameObject, listWrapped, idBreaksPattern

    /// The mismatch each drift must produce: its kind and path.
    var expected: (kind: String, path: String) {
        switch self {
        case .removedField: ("BodyMismatch", "$.text")
        case .changedType: ("BodyMismatch", "$.views")
        case .wrongStatus: ("StatusMismatch", "status")
        case .missingAuthCheck: ("StatusMismatch", "status")
        case .enumOutside: ("BodyMismatch", "$.state")
        case .wrongContentType: ("HeaderMismatch", "Content-Type")
        case .nullInRequired: ("BodyMismatch", "$.id")
        case .brokenFormat: ("BodyMismatch", "$.created")
        case .arrayBecameObject: ("BodyMismatch", "$.tags")
        case .listWrapped: ("BodyMismatch", "$")
        case .idBreaksPattern: ("BodyMismatch", "$.id")
        }
    }
}

/// The provider: faithful with `drift` nil.
func notesProvider(drift: Drift?) -> ClosureHandler {
    ClosureHandler { request in
        func note(_ id: String, text: String) -> [String: JSONValue] {
            var note: [String: JSONValue] = [
                "id": .string(id), "text": .string(text), "tags": .array([.string("home")]),
                "state": .string("draft"), "views": .int(3), "created": .string("2026-01-01T10:00:00Z"),
            ]
            switch drift {
            case .removedField: note["text"] = nil
            case .changedType: note["views"] = .string("3")
            case .enumOutside: note["state"] = .string("archived")
            case .nullInRequired: note["id"] = .null
            case .brokenFormat: note["created"] = .string("yesterday")
            case .arrayBecameObject: note["tags"] = .object(["home": .bool(true)])
            case .idBreaksPattern: note["id"] = .string("n 1!")
            default: break
            }
            return note
        }
        func json(_ value: JSONValue, status: Int = 200) -> ServerResponse {
            var response = ServerResponse.json(value.serialized(), status: status)
            if drift == .wrongContentType { response.headers = ["Content-Type": "text/plain"] }
            return response
        }
        switch (request.method, request.path) {
        case ("GET", "/notes"):
            let list = JSONValue.array([.object(note("n1", text: "Buy milk"))])
            return json(drift == .listWrapped ? .object(["items": list]) : list)
        case ("GET", let path) where path.hasPrefix("/notes/"):
            guard request.headers["Authorization"] == "Bearer t0ken" || drift == .missingAuthCheck else {
                return json(
                    .object(["error": .string("unauthorized"), "message": .string("no token")]), status: 401)
            }
            return json(.object(note(String(path.dropFirst("/notes/".count)), text: "Buy milk")))
        case ("POST", "/notes"):
            let text = (try? JSONValue.parse(request.body))?["text"]?.stringValue ?? ""
            return json(.object(note("n2", text: text)), status: drift == .wrongStatus ? 200 : 201)
        default:
            return nil
        }
    }
}
