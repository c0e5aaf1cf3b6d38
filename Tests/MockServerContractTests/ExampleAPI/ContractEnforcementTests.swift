import Courier
import CourierContract
import CourierContractModel
import CourierCurl
import CourierPrimitives
import Foundation
import MockServer
import MockServerContract
import TestSupport
import Testing

/// The mock enforces the whole declaration (auth, parameters, the body's media type and schema),
/// and the contract check reports every violation of every answer.
@Suite(.timeLimit(.minutes(3)))
struct ContractEnforcementTests {
    @Test func aProtectedOperationWithoutATokenGets401() async throws {
        try await withMockServer(handlers: [ContractHandler(NotesAPI.self)]) { server in
            let body = #"{"text": "hi"}"#
            let json = [("Content-Type", "application/json")]
            let refused = try perform(server, "POST", "/notes", headers: json, body: body)
            #expect(refused.status == 401, "\(refused.text)")
            #expect(refused.text.contains("credentials required: bearer"), "\(refused.text)")
            #expect(
                refused.headers.contains { $0.0 == "WWW-Authenticate" && $0.1 == #"Bearer realm="mock""# })
            let notBearer = try perform(
                server, "POST", "/notes", headers: json + [("Authorization", "Basic dTpw")], body: body)
            #expect(notBearer.status == 401)
            let allowed = try perform(
                server, "POST", "/notes", headers: json + [("Authorization", "Bearer t0ken")], body: body)
            #expect(allowed.status == 201, "\(allowed.text)")
            let open = try perform(server, "GET", "/notes")
            #expect(open.status == 200, "an operation without auth needs no token")
        }
    }

    enum KeyedAPI: API {
        static func code(id: String) -> Endpoint<Data> {
            endpoint(
                .get, "/codes/{id}", "A ticket's code", security: [.basic, .apiKey("X-API-Key")],
                contentType: "application/octet-stream", errors: [404]
            ) {
                Path("id", id)
            }
        }

        static var samples: [any EndpointDescribing] { [code(id: "t1")] }
    }

    /// Any one of the declared schemes lets a request in; without one, 401 names the HTTP schemes.
    @Test func anyDeclaredSchemeIsEnough() async throws {
        try await withMockServer(handlers: [ContractHandler(KeyedAPI.self)]) { server in
            let refused = try perform(server, "GET", "/codes/t1")
            #expect(refused.status == 401, "\(refused.text)")
            #expect(refused.text.contains("basic or apiKey"), "\(refused.text)")
            #expect(refused.headers.contains { $0.0 == "WWW-Authenticate" && $0.1 == #"Basic realm="mock""# })
            let bearer = try perform(server, "GET", "/codes/t1", headers: [("Authorization", "Bearer t")])
            #expect(bearer.status == 401)
            let basic = try perform(server, "GET", "/codes/t1", headers: [("Authorization", "Basic dTpw")])
            #expect(basic.status == 200, "\(basic.text)")
            let key = try perform(server, "GET", "/codes/t1", headers: [("X-API-Key", "k")])
            #expect(key.status == 200, "\(key.text)")
        }
    }

    enum BrokenAPI: API {
        /// A template variable with no `Path` parameter: the API's document is not valid OpenAPI.
        static func item() -> Endpoint<EmptyResponse> { endpoint(.get, "/items/{id}", "One item") {} }
        static var samples: [any EndpointDescribing] { [item()] }
    }

    /// A declaration whose document cannot be served is answered with a 500 that says why.
    @Test func aDeclarationWhoseDocumentIsInvalidGets500ThatSaysWhy() throws {
        let handler = ContractHandler(BrokenAPI.self)
        let answer = try #require(handler.handle(ServerRequest(method: "GET", target: "/items/7")))
        #expect(answer.status == 500)
        guard case .data(let data) = answer.body else {
            Issue.record("the 500 has no body")
            return
        }
        let body = try JSONValue.parse(data)
        #expect(body["message"]?.stringValue?.contains("{id}") == true, "\(body)")
    }

    @Test func theDeclaredErrorBodyAnswersARefusal() async throws {
        // An API whose errors have a model: the 401 is a body of that model, with the refusal's message
        // where the model leaves room for it.
        try await withMockServer(handlers: [ContractHandler(GuardedAPI.self)]) { server in
            let refused = try perform(server, "GET", "/vault/v1")
            #expect(refused.status == 401, "\(refused.text)")
            let body = try JSONValue.parse(Data(refused.text.utf8))
            #expect(Schema.of(Fault.self).violation(of: body, at: "") == nil, "\(refused.text)")
            #expect(body["message"]?.stringValue?.contains("credentials required") == true, "\(refused.text)")
        }
    }

    @Test func aBodyOfAnotherMediaTypeGets415AndABadBodyNamesItsPath() async throws {
        try await withMockServer(handlers: [ContractHandler(NotesAPI.self)]) { server in
            let token = ("Authorization", "Bearer t0ken")
            let text = try perform(
                server, "POST", "/notes", headers: [token, ("Content-Type", "text/plain")], body: "hi")
            #expect(text.status == 415, "\(text.text)")
            #expect(text.text.contains("Content-Type"), "\(text.text)")
            let bad = try perform(
                server, "POST", "/notes", headers: [token, ("Content-Type", "application/json")],
                body: #"{"text": "ok", "color": "purple"}"#)
            #expect(bad.status == 400, "\(bad.text)")
            #expect(bad.text.contains("$.color"), "\(bad.text)")
        }
    }

    /// A stub that drifts in four ways gets four failures, each with its path (the README's
    /// `checkStubs(in:)` over `Fixtures/drifting-stubs`).
    @Test func theContractCheckReportsEveryViolationOfAStub() async throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/drifting-stubs")
        let failures = try await checkStubs(in: fixtures)
        let problems = failures.filter { $0.operation == "notes.note" }.map(\.problem)
        #expect(problems.count == 4, "\(failures)")
        for path in ["response.text", "response.color", "response.tags", "response.created"] {
            #expect(problems.contains { $0.hasPrefix(path + " ") }, "\(path) missing from \(problems)")
        }
        #expect(failures.count == 4, "the other operations answer from examples: \(failures)")
    }

    @Test func theReadmeShowsTheStubCheckVerbatim() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let example = try String(
            contentsOf: here.appendingPathComponent("ReadmeStubCheckExample.swift"), encoding: .utf8)
        let readme = try String(
            contentsOf: here.appendingPathComponent("../../../README.md").standardizedFileURL, encoding: .utf8
        )
        #expect(readme.contains("```swift\n" + example + "```"))
    }

    @Test func anOperationDeclaredButNotSampledIsReported() async throws {
        #expect(
            GuardedAPI.sampleProblems == [
                "vault.archive is declared but has no sample in GuardedAPI.samples: it is missing from the "
                    + "OpenAPI document, the mock's routing and verification"
            ])
        try await withMockServer(handlers: [ContractHandler(GuardedAPI.self)]) { server in
            let transport = CurlTransport()
            let failures = await ContractCheck.run(
                GuardedAPI.self, transport: transport, baseURL: server.baseURL,
                headers: ["Authorization": "Bearer t"])
            await transport.shutdown()
            #expect(
                failures.map(\.description).contains { $0.contains("vault.archive is declared") },
                "\(failures)")
        }
    }
}

/// An error model with its own field names.
struct Fault: Codable, Sendable, SchemaDescribing {
    var reason: String
    var code: String
    static let propertySchemas: [String: Schema] = [:]
}

/// An API with an error model, one protected operation, and one declared but left out of `samples`.
enum GuardedAPI: API {
    static var group: String { "vault" }
    static var errorSchema: Schema? { .of(Fault.self) }
    static var declaredOperations: [String] { ["item", "archive"] }

    static func item(id: String) -> Endpoint<Fault> {
        endpoint(.get, "/vault/{id}", "One item", auth: true) { Path("id", id, .identifier) }
    }

    static func archive(id: String) -> Endpoint<EmptyResponse> {
        endpoint(.post, "/vault/{id}/archive", "Archive an item", status: 204, auth: true) {
            Path("id", id, .identifier)
        }
    }

    static var samples: [any EndpointDescribing] { [item(id: "v1")] }
}
