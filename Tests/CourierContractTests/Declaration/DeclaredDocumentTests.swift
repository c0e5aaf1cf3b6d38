import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import CourierTesting
import Foundation
import Testing

/// What a declaration says is what its OpenAPI document says: the response's media type, the
/// security schemes, the error responses' media type, and only the statuses it lists when it asks
/// for no refusal statuses of its own.
struct DeclaredDocumentTests {
    struct Problem: Codable, Sendable {
        var title: String?
    }

    enum MuseumAPI: API {
        static var errorSchema: Schema? { .of(Problem.self) }
        static var errorContentType: String { "application/problem+json" }
        static var declaresRefusals: Bool { false }

        static func hours() -> Endpoint<String> {
            endpoint(.get, "/hours", "Opening hours", contentType: "text/plain") {}
        }

        static func code(id: String) -> Endpoint<Data> {
            endpoint(
                .get, "/codes/{id}", "A ticket's code", security: [.basic, .apiKey("X-API-Key")],
                contentType: "application/octet-stream", errors: [404], emptyErrors: [401]
            ) {
                Path("id", id)
            }
        }

        static var samples: [any EndpointDescribing] { [hours(), code(id: "t1")] }
    }

    static var document: JSONValue { OpenAPIWriter.make(title: "Museum", operations: MuseumAPI.operations) }

    @Test func theResponsesMediaTypeIsTheDeclaredOne() {
        let hours = Self.document["paths"]?["/hours"]?["get"]?["responses"]?["200"]?["content"]
        #expect(hours?.objectKeys == ["text/plain"])
        #expect(hours?["text/plain"]?["schema"]?["type"] == .string("string"))
        let code = Self.document["paths"]?["/codes/{id}"]?["get"]?["responses"]?["200"]?["content"]
        #expect(code?.objectKeys == ["application/octet-stream"])
        #expect(code?["application/octet-stream"]?["schema"]?["format"] == .string("binary"))
    }

    @Test func onlyTheListedStatusesWithTheErrorMediaType() {
        let responses = Self.document["paths"]?["/codes/{id}"]?["get"]?["responses"]
        #expect(responses?.objectKeys == ["200", "401", "404"])
        #expect(responses?["404"]?["content"]?.objectKeys == ["application/problem+json"])
        // An error answered with no body has none, beside one with the API's error model.
        #expect(responses?["401"]?["description"] != nil)
        #expect(responses?["401"]?["content"] == nil)
        #expect(Self.document["paths"]?["/hours"]?["get"]?["responses"]?.objectKeys == ["200"])
    }

    @Test func securitySchemesAreAlternatives() {
        let security = Self.document["paths"]?["/codes/{id}"]?["get"]?["security"]
        #expect(security == .array([.object(["basic": .array([])]), .object(["apiKey": .array([])])]))
        let schemes = Self.document["components"]?["securitySchemes"]
        #expect(schemes?["basic"] == .object(["type": .string("http"), "scheme": .string("basic")]))
        #expect(
            schemes?["apiKey"]
                == .object(["type": .string("apiKey"), "in": .string("header"), "name": .string("X-API-Key")])
        )
        #expect(MuseumAPI.code(id: "t").operation.requiresAuth)
        #expect(!MuseumAPI.hours().operation.requiresAuth)
    }

    @Test func aResponseOfTheDeclaredMediaTypeIsNoViolation() {
        let operation = MuseumAPI.hours().operation
        #expect(
            operation.responseViolations(status: 200, contentType: "text/plain", body: Data("9 to 5".utf8))
                .isEmpty)
        #expect(
            operation.responseViolations(status: 200, contentType: "application/json", body: Data("1".utf8))
                .map(\.rule) == ["content-type"])
    }
}

/// Forms, URL-encoded and multipart, declared field by field.
struct DeclaredFormTests {
    struct Contact: Codable, Sendable {
        var email: String
        var tags: [String]?
    }

    enum FormsAPI: API {
        static func contact(_ body: Contact) -> Endpoint<EmptyResponse> {
            endpoint(.post, "/contact", "Send a contact form", status: 204) { Form(body) }
        }

        static func photo(caption: String, note: String?, photo: URL) -> Endpoint<EmptyResponse> {
            endpoint(.post, "/photo", "Send a photo", status: 204) {
                Multipart(
                    .value("caption", caption), .value("note", note),
                    .file("photo", photo, contentType: "image/png", accepted: ["image/png"]))
            }
        }

        static var samples: [any EndpointDescribing] {
            [
                contact(Contact(email: "a@b.c")),
                photo(caption: "c", note: nil, photo: URL(fileURLWithPath: "/dev/null")),
            ]
        }
    }

    static var document: JSONValue { OpenAPIWriter.make(title: "Forms", operations: FormsAPI.operations) }

    /// `courier call` builds a form or a multipart body from text arguments: fields by name, a file part
    /// typed by the declaration, a required field missing refused by name.
    @Test func aCallFromArgumentsBuildsFormsAndMultipartBodies() throws {
        let contact = try #require(FormsAPI.operations.first { $0.path == "/contact" })
        let form = try OperationCall(contact, arguments: ["email": "a@b.c"])
        #expect((form.parameters as? CombinedParameters)?.parts.first is FormBody)
        let missing = #expect(throws: CourierError.self) { try OperationCall(contact, arguments: [:]) }
        #expect(missing?.localizedDescription.contains("--email is required") == true)

        let photo = try #require(FormsAPI.operations.first { $0.path == "/photo" })
        let call = try OperationCall(photo, arguments: ["caption": "hi", "photo": "/tmp/cat.png"])
        let body = (call.parameters as? CombinedParameters)?.parts.first
        let parts = try #require(body as? MultipartForm).parts
        #expect(parts.map(\.name) == ["caption", "photo"])
        #expect(parts.last?.filename == "cat.png")
        #expect(parts.last?.contentType == "image/png")
    }

    @Test func aFormIsItsModelsFieldsURLEncoded() throws {
        let content = Self.document["paths"]?["/contact"]?["post"]?["requestBody"]?["content"]
        #expect(content?.objectKeys == ["application/x-www-form-urlencoded"])
        #expect(
            content?["application/x-www-form-urlencoded"]?["schema"]?["$ref"]
                == .string("#/components/schemas/Contact"))
        let request = try FormsAPI.contact(Contact(email: "a@b.c", tags: ["x", "y"]))
            .makeRequest(baseURL: URL(string: "http://127.0.0.1:9"))
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        guard case .data(let body) = request.body else {
            Issue.record("no body in memory")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == "email=a%40b.c&tags=x&tags=y")
    }

    @Test func aMultipartFormDeclaresEachField() throws {
        let form = Self.document["paths"]?["/photo"]?["post"]?["requestBody"]?["content"]?[
            "multipart/form-data"]
        let schema = form?["schema"]
        #expect(schema?["properties"]?["caption"] == .object(["type": .string("string")]))
        #expect(
            schema?["properties"]?["photo"]
                == .object(["type": .string("string"), "format": .string("binary")]))
        #expect(schema?["required"] == .array([.string("caption"), .string("photo")]))
        #expect(form?["encoding"]?["photo"]?["contentType"] == .string("image/png"))
        let photo = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID()).png")
        try Data([0x89, 0x50]).write(to: photo)
        defer { try? FileManager.default.removeItem(at: photo) }
        let request = try FormsAPI.photo(caption: "Sunset", note: nil, photo: photo)
            .makeRequest(baseURL: URL(string: "http://127.0.0.1:9"))
        #expect(request.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(
            FormsAPI.photo(caption: "c", note: nil, photo: URL(fileURLWithPath: "/x")).operation.body?
                .contentTypes == ["multipart/form-data"])
    }
}

/// Parameters whose value is JSON text (OpenAPI's `content: application/json`), not a styled value.
struct JSONParameterTests {
    struct Filter: Codable, Sendable {
        var q: String
    }

    enum SearchAPI: API {
        static func search(filter: Filter, trace: [String: String]?) -> Endpoint<EmptyResponse> {
            endpoint(.get, "/search", "Search") {
                Query("filter", json: filter)
                Header("X-Trace", json: trace)
            }
        }

        static var samples: [any EndpointDescribing] { [search(filter: Filter(q: "a"), trace: nil)] }
    }

    @Test func theDocumentSaysContentNotSchema() {
        let document = OpenAPIWriter.make(title: "Search", operations: SearchAPI.operations)
        guard case .array(let parameters)? = document["paths"]?["/search"]?["get"]?["parameters"] else {
            Issue.record("no parameters")
            return
        }
        #expect(parameters.first?["schema"] == nil)
        #expect(
            parameters.first?["content"]?["application/json"]?["schema"]?["$ref"]
                == .string("#/components/schemas/Filter"))
        #expect(parameters.last?["required"] == .bool(false))
    }

    @Test func theValueIsSentAsJSONText() throws {
        let request = try SearchAPI.search(filter: Filter(q: "a b"), trace: ["id": "7"])
            .makeRequest(baseURL: URL(string: "http://127.0.0.1:9"))
        #expect(request.url.query == "filter=%7B%22q%22%3A%22a%20b%22%7D", "\(request.url)")
        #expect(request.headers["X-Trace"] == #"{"id":"7"}"#)
    }

    @Test func theMockChecksTheJSONAgainstTheSchema() throws {
        let mock = ContractHandler(SearchAPI.self)
        func status(_ filter: String) -> Int? {
            let query = filter.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            return mock.gate(ServerRequest(method: "GET", target: "/search?filter=" + query))?.status
        }
        #expect(status(#"{"q": "a"}"#) == nil)
        #expect(status(#"{"q": 1}"#) == 400)
        #expect(status("not json") == 400)
    }
}

extension JSONValue {
    /// An object's keys in order; none for another value.
    fileprivate var objectKeys: [String] {
        if case .object(let members) = self { return members.keys.sorted() }
        return []
    }
}
