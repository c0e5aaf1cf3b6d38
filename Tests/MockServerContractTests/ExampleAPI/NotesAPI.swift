import Courier
import CourierContract
import CourierContractModel
import Foundation

// A small notes API, unrelated to the social one, declared once. Everything else (the client,
// the OpenAPI document, the stub server and its validation, the contract test) comes from this.

struct Note: Codable, Sendable, Equatable, SchemaDescribing {
    var id: String
    var text: String
    var pinned: Bool
    var color: Color
    var tags: [String]
    var created: Date
    static let propertySchemas: [String: Schema] = ["id": .identifier, "text": .text(1, 500)]
}

enum Color: String, Codable, Sendable, CaseIterable { case yellow, green, blue }

struct NewNote: Codable, Sendable, SchemaDescribing {
    var text: String
    var pinned: Bool?
    var color: Color?
    static let propertySchemas: [String: Schema] = ["text": .text(1, 500)]
}

enum NotesAPI: API {
    static func list(tag: String? = nil, limit: Int? = nil) -> Endpoint<[Note]> {
        endpoint(.get, "/notes", "Notes, newest first") {
            Query("tag", tag, "Only notes with this tag")
            Query("limit", limit, .integer(minimum: 1, maximum: 50), default: 20, "How many")
        }
    }

    static func note(id: String) -> Endpoint<Note> {
        endpoint(.get, "/notes/{id}", "One note", errors: [404]) { Path("id", id, .identifier) }
    }

    static func create(_ note: NewNote) -> Endpoint<Note> {
        endpoint(.post, "/notes", "Write a note", status: 201, auth: true) { Body(note) }
    }

    static func delete(id: String) -> Endpoint<EmptyResponse> {
        endpoint(.delete, "/notes/{id}", "Delete a note", status: 204, auth: true, errors: [404]) {
            Path("id", id, .identifier)
        }
    }

    static var samples: [any EndpointDescribing] {
        [list(tag: "work", limit: 5), note(id: "n1"), create(NewNote(text: "Buy milk")), delete(id: "n1")]
    }
}
