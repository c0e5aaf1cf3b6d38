// The names a doc-comment example may use without declaring them. scripts/check-doc-snippets.sh
// compiles this file into a module of its own and type-checks every ```swift block of a doc
// comment against it and the built modules, as a user's code would: public API alone. A name an
// example declares itself hides the one here.
//
// Keep this small and neutral: a notes API with its model, a manager, a transport, a token
// provider and a few values. No demo types.
import Courier
import CourierContract
import CourierContractModel
import CourierInterceptors
import CourierURLSession
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A note, the model of the example API.
public struct Note: Codable, Sendable, Equatable, Identifiable, SchemaDescribing {
    public var id: String
    public var text: String

    public init(id: String, text: String) {
        self.id = id
        self.text = text
    }

    public static let propertySchemas: [String: Schema] = ["id": .identifier, "text": .text(1, 500)]
}

/// A note to create.
public struct NewNote: Codable, Sendable, SchemaDescribing {
    public var text: String

    public init(text: String) { self.text = text }

    public static let propertySchemas: [String: Schema] = ["text": .text(1, 500)]
}

/// The example API, declared once.
public enum NotesAPI: API {
    public static func list(tag: String? = nil) -> Endpoint<[Note]> {
        endpoint(.get, "/notes", "Notes, newest first") { Query("tag", tag, "Only notes with this tag") }
    }

    public static func note(id: String) -> Endpoint<Note> {
        endpoint(.get, "/notes/{id}", "One note", errors: [404]) { Path("id", id) }
    }

    public static func create(_ note: NewNote) -> Endpoint<Note> {
        endpoint(.post, "/notes", "Write a note", status: 201) { Body(note) }
    }

    public static var samples: [any EndpointDescribing] {
        [list(tag: "work"), note(id: "n1"), create(NewNote(text: "Buy milk"))]
    }
}

/// A token provider that always has the same token.
public struct ExampleTokens: TokenProvider {
    public init() {}
    public func currentToken() async throws -> String? { "token" }
    public func refreshToken() async throws -> String { "token" }
}

/// The server the examples talk to.
public let baseURL = URL(string: "https://api.example.com")!
/// A URL to fetch or a file to read, as an example needs.
public let url = URL(string: "https://api.example.com/notes")!
/// A transport.
public let transport: any Transport = URLSessionTransport()
/// A manager over `transport`, against `baseURL`.
public let manager = NetworkManager(transport: transport, baseURL: baseURL)
/// A request a transport sends.
public let request = TransportRequest(url: url)
/// Tokens for `AuthInterceptor`.
public let tokens = ExampleTokens()
/// A response body.
public let data = Data(#"[{"id":"n1","text":"Buy milk"}]"#.utf8)
/// Where downloads and exports are written.
public let handle = FileHandle.standardOutput
/// A folder for caches and fixtures.
public let directory = FileManager.default.temporaryDirectory
