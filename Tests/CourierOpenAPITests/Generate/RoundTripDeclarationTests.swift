import CourierPrimitives
import Foundation
import Testing

@testable import CourierOpenAPI

/// The declarations generated from `generate/round-trip.yaml` keep what it says: media types,
/// formats through `$ref`, security schemes, servers with variables, and its statuses alone.
/// (`scripts/generate-check.sh` builds them, writes their document and diffs it against this one.)
@Suite struct RoundTripDeclarationTests {
    static func generated(access: DeclarationGenerator.Access = .internal) throws -> GeneratedDeclarations {
        let document = try OpenAPIDocument.load(
            from: DeclarationGeneratorTests.fixtures.appendingPathComponent("generate/round-trip.yaml"))
        return try DeclarationGenerator.generate(document, access: access)
    }

    static func file(_ name: String) throws -> String {
        try #require(try generated().files[name], "no \(name)")
    }

    @Test func formatsThroughAReferenceAreThePropertysSchema() throws {
        let models = try Self.file("Models.swift")
        #expect(models.contains(#""ticketDate": .string(.init(format: "date"))"#), "\(models)")
        #expect(models.contains(#""email": .string(.init(format: "email"))"#), "\(models)")
    }

    @Test func responsesKeepTheirMediaTypes() throws {
        let notes = try Self.file("NotesAPI.swift")
        #expect(notes.contains(#"static func text() -> Endpoint<String> {"#))
        #expect(notes.contains(#"contentType: "text/plain""#), "\(notes)")
        let tickets = try Self.file("TicketsAPI.swift")
        #expect(tickets.contains(#"static func code(ticketId: UUID) -> Endpoint<Data> {"#), "\(tickets)")
        #expect(tickets.contains(#"contentType: "application/octet-stream""#))
        #expect(tickets.contains(#"static var errorContentType: String { "application/problem+json" }"#))
        let events = try Self.file("EventsAPI.swift")
        #expect(events.contains(#"contentType: "text/event-stream""#), "\(events)")
    }

    @Test func securitySchemesAreTheOperationsAuth() throws {
        let tickets = try Self.file("TicketsAPI.swift")
        #expect(tickets.contains(#"security: [.basic.named("basicAuth")]"#), "\(tickets)")
        let notes = try Self.file("NotesAPI.swift")
        #expect(notes.contains(#"security: [.apiKey("X-API-Key")]"#), "\(notes)")
        #expect(!notes.contains(#""Opening hours as text", security"#), "security: [] needs none")
        let events = try Self.file("EventsAPI.swift")
        #expect(events.contains("auth: true"), "a bearer token named bearer: \(events)")
        let reported = try Self.generated().undeclared.map(\.pointer)
        #expect(!reported.contains { $0.contains("security") }, "\(reported)")
    }

    @Test func onlyTheDocumentsStatuses() throws {
        let generated = try Self.generated()
        for (name, source) in generated.files where name.hasSuffix("API.swift") {
            #expect(source.contains("static var declaresRefusals: Bool { false }"), "\(name)")
        }
        let tickets = try Self.file("TicketsAPI.swift")
        #expect(tickets.contains("errors: [400]"), "\(tickets)")
        #expect(!generated.undeclared.contains { $0.reason.contains("is declared for every operation") })
    }

    @Test func formsAreDeclaredFieldByField() throws {
        let forms = try Self.file("FormsAPI.swift")
        #expect(
            forms.contains("static func contact(body: ContactBody) -> Endpoint<EmptyResponse> {"), "\(forms)")
        #expect(forms.contains("Form(body)"))
        #expect(
            forms.contains("static func photo(caption: String, photo: URL, photoContentType: String)"),
            "\(forms)")
        #expect(
            forms.contains(
                #"Multipart(.value("caption", caption), .file("photo", photo, contentType: photoContentType))"#
            ))
        let reported = try Self.generated().undeclared.map(\.pointer)
        #expect(!reported.contains { $0.contains("requestBody") }, "\(reported)")
    }

    /// A parameter described by `content: application/json` is a typed value sent as JSON text.
    @Test func parametersWithJSONContentAreDeclaredAsJSON() throws {
        let document = try OpenAPIDocument.load(
            from: ValidatorAgreementTests.folder.appendingPathComponent("valid/parameter-content-3.1.yaml"))
        let generated = try DeclarationGenerator.generate(document)
        let api = try #require(generated.files["ParameterContent31API.swift"])
        #expect(api.contains(#"Path("selector", json: selector)"#), "\(api)")
        #expect(api.contains(#"Header("X-Filter", json: xFilter)"#))
        #expect(api.contains(#"Query("where", json: `where`)"#))
        #expect(api.contains("xFilter: GetItemsBySelectorXFilter? = nil"), "\(api)")
        #expect(api.contains("`where`: [String]? = nil"))
        let reported = generated.undeclared.map(\.pointer)
        #expect(!reported.contains { $0.hasSuffix("/content") && !$0.contains("/2/") }, "\(reported)")
    }

    /// `generate/round-trip-responses.yaml`: what its responses and models say is declared, not reported.
    /// (`scripts/generate-check.sh` checks that its declarations' document has no breaking change against it.)
    @Test func responsesAndModelsAreDeclaredAsTheDocumentSaysThem() throws {
        let document = try OpenAPIDocument.load(
            from: DeclarationGeneratorTests.fixtures.appendingPathComponent(
                "generate/round-trip-responses.yaml"))
        let generated = try DeclarationGenerator.generate(document)
        let pings = try #require(generated.files["PingsAPI.swift"])
        // No responses, only an error, only a redirect: no success status.
        #expect(
            pings.contains(#"endpoint(.get, "/ping", "Answers with anything, or nothing", status: nil) {}"#),
            "\(pings)")
        #expect(pings.contains(#""Always refused", status: nil, emptyErrors: [401])"#))
        #expect(pings.contains(#"status: nil, errors: [400], emptyErrors: [303])"#))
        let orders = try #require(generated.files["OrdersAPI.swift"])
        // A second success status with the same body; an error model that is not the group's.
        #expect(orders.contains(#"otherStatuses: [202], errors: [400, 409])"#), "\(orders)")
        #expect(orders.contains("static var errorSchema: Schema? { .of(Problem.self) }"))
        #expect(orders.contains(#"errors: [404], errorSchemas: [404: .of(Missing.self)])"#))
        #expect(orders.contains(#"Query("minimumScore", minimumScore, .number(minimum: 0.0, maximum: 1.5))"#))
        #expect(
            orders.contains(
                #"FileUpload(file, contentType: contentType, accepted: ["image/jpeg"], base64: true)"#))
        let models = try #require(generated.files["Models.swift"])
        #expect(models.contains("extension Payment: SchemaAlternatives {"), "\(models)")
        #expect(
            models.contains(
                "static var alternativeTypes: [any Decodable.Type] { [Card.self, BankAccount.self] }"))
        #expect(models.contains("static var exclusiveAlternatives: Bool { true }"))
        #expect(
            models.contains("static var alternativeTypes: [any Decodable.Type] { [String.self, Int.self] }"))
        #expect(models.contains(#""score": .number(minimum: 0.0, maximum: 10.0)"#))
        #expect(models.contains("var quantity: UInt8?"))
        #expect(models.contains("enum OrderPalette: String, Codable, Sendable, CaseIterable {"))
        #expect(models.contains(#""receiptUrl": .string(.init(maxLength: 2048, format: "uri"))"#))
        #expect(models.contains(#""labels": .map(.string(.init(minLength: 1, maxLength: 100)))"#))
        #expect(models.contains(#""change": .integer(minimum: -100, maximum: 32767)"#))
        let reported = generated.undeclared.filter { !$0.isDocumentation }
        #expect(reported.isEmpty, "\(reported)")
    }

    @Test func serversWithVariablesAreBaseURLs() throws {
        let namespace = try Self.file("MuseumDocument.swift")
        #expect(
            namespace.contains(#"static func baseURL(environment: String = "api") -> URL?"#), "\(namespace)")
        #expect(namespace.contains(#""https://\(environment).museum.example.com/v1""#))
        #expect(try !Self.generated().undeclared.contains { $0.pointer == "/servers" })
    }

    @Test func publicAccessMakesEveryDeclarationPublic() throws {
        let generated = try Self.generated(access: .public)
        let tickets = try #require(generated.files["TicketsAPI.swift"])
        #expect(tickets.contains("public enum TicketsAPI: API {"))
        #expect(tickets.contains("    public static func buy(body: Ticket) -> Endpoint<Ticket> {"))
        #expect(tickets.contains("    public static var samples: [any EndpointDescribing] {"))
        let models = try #require(generated.files["Models.swift"])
        #expect(models.contains("public struct Ticket: Codable, Sendable {"))
        #expect(models.contains("    public var email: Email\n"))
        #expect(models.contains("    public init(ticketDate: DateModel, email: Email, id: UUID? = nil) {"))
        #expect(models.contains("public typealias Email = String"))
        #expect(generated.files["MuseumDocument.swift"]?.contains("public enum MuseumDocument {") == true)
        let internalOnes = try Self.generated()
        #expect(internalOnes.files.values.allSatisfy { !$0.contains("public ") })
    }
}
