import Courier
import CourierContract
import CourierContractModel
import Foundation

// A small notes API for the recorder's tests, declared once.

struct Note: Codable, Sendable, Equatable, SchemaDescribing {
    var id: String
    var text: String
    var tags: [String]
    var created: Date
    static let propertySchemas: [String: Schema] = ["id": .identifier, "text": .text(1, 500)]
}

struct NewNote: Codable, Sendable, SchemaDescribing {
    var text: String
    static let propertySchemas: [String: Schema] = ["text": .text(1, 500)]
}

enum NotesAPI: API {
    static func list(tag: String? = nil) -> Endpoint<[Note]> {
        endpoint(.get, "/notes", "Notes, newest first") { Query("tag", tag, "Only notes with this tag") }
    }

    static func note(id: String) -> Endpoint<Note> {
        endpoint(.get, "/notes/{id}", "One note", errors: [404]) { Path("id", id, .identifier) }
    }

    static func create(_ note: NewNote) -> Endpoint<Note> {
        endpoint(.post, "/notes", "Write a note", status: 201) { Body(note) }
    }

    static var samples: [any EndpointDescribing] {
        [list(tag: "work"), note(id: "n1"), create(NewNote(text: "Buy milk"))]
    }
}
