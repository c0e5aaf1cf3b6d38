import Courier
import CourierContract
import CourierContractModel
import CourierOpenAPI
import CourierPrimitives
import Foundation
import MockServer
import MockServerOpenAPI

/// Serves any declared API from its own OpenAPI 3.1 document (`OpenAPIWriter`), by the same code
/// that serves any document (`OpenAPIHandler`): its operations routed, a request that breaks the
/// declaration refused with a status that says why (401 without the declared credentials, with a
/// `WWW-Authenticate` challenge; 400 for a parameter; 415 for a body of another media type; the
/// declared 422, else 400, for a body that breaks its schema), each problem naming the parameter or
/// JSON path (`$.text`) and the rule broken, in a body that fits the operation's declared error
/// schema when it has one. A request that passes is answered by the operation's responder or,
/// failing that, an example made from its response schema (marked with
/// `ServerResponse.exampleAnswerHeader`, since an example answers any id).
///
/// ```swift
/// let notes = ContractHandler(NotesAPI.self)
///     .responding(to: NotesAPI.create(NewNote(text: "")).operation) { call in
///         let note = Note(id: "n1", text: call.json?["text"]?.stringValue ?? "")
///         return .json((try? JSONEncoder().encode(note)) ?? Data(), status: 201)
///     }
/// let created = try await withMockServer(handlers: [notes]) { server in
///     try await NetworkManager(transport: transport, baseURL: server.baseURL)
///         .send(NotesAPI.create(NewNote(text: "Buy milk"))).value
/// }
/// ```
///
/// Validation runs before WireMock stubs (`gate(_:)`), so a stub added on top of one
/// operation changes its answers while requests to it are still checked.
public struct ContractHandler: HTTPHandler {
    /// A validated call of one operation.
    public struct Call: Sendable {
        /// The operation called.
        public var operation: APIOperation
        /// The parameters that arrived, as text, by name.
        public var values: [String: String]
        /// The JSON body, when the operation takes one.
        public var json: JSONValue?
        /// The request as received.
        public var request: ServerRequest
    }

    /// Answers a validated call.
    public typealias Responder = @Sendable (Call) -> ServerResponse

    /// The operations served.
    public let operations: [APIOperation]
    private var responders: [String: Responder]
    /// Answers an operation that has no responder of its own, instead of the example.
    private var fallback: Responder?
    /// The operations by id, as the document's operation ids name them.
    private let declared: [String: APIOperation]
    /// The declaration's document served, or why it could not be read.
    private var served: Result<OpenAPIHandler, DocumentFailure>

    /// Serves `operations`.
    public init(operations: [APIOperation], responders: [String: Responder] = [:]) {
        self.operations = operations
        self.responders = responders
        declared = Dictionary(operations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        do {
            let data = try OpenAPIWriter.data(title: "Declared API", operations: operations)
            let document = try OpenAPIDocument.parse(data, url: URL(fileURLWithPath: "openapi.json"))
            served = .success(OpenAPIHandler(document: document))
        } catch {
            served = .failure(DocumentFailure(reason: "\(error)"))
        }
        attachResponders()
    }

    /// Serves every operation of `api`.
    public init<A: API>(_ api: A.Type, responders: [String: Responder] = [:]) {
        self.init(operations: A.operations, responders: responders)
    }

    /// This handler with `respond` answering `operation` instead of the example.
    public func responding(to operation: APIOperation, _ respond: @escaping Responder) -> ContractHandler {
        var copy = self
        copy.responders[operation.id] = respond
        copy.attachResponders()
        return copy
    }

    /// This handler with `respond` answering every operation that has no responder of its own, instead
    /// of the example: a backend that implements the whole API behind the declaration's checks.
    package func answeringEveryOperation(_ respond: @escaping Responder) -> ContractHandler {
        var copy = self
        copy.fallback = respond
        copy.attachResponders()
        return copy
    }

    /// Refuses, before stubs are tried, a request to a declared operation that breaks its
    /// declaration.
    public func gate(_ request: ServerRequest) -> ServerResponse? {
        switch served {
        case .success(let handler): handler.gate(request)
        case .failure(let failure): failure.response
        }
    }

    /// Answers a declared operation: 405 with `Allow` for a known path with another method, else the
    /// responder's answer or the example.
    public func handle(_ request: ServerRequest) -> ServerResponse? {
        switch served {
        case .success(let handler): handler.handle(request)
        case .failure(let failure): failure.response
        }
    }

    /// Hands each request that passed the document's checks to its operation's responder.
    private mutating func attachResponders() {
        guard case .success(var handler) = served else { return }
        let (responders, fallback, declared) = (responders, fallback, declared)
        handler.responder = { operation, path, request in
            guard let id = operation.operationID, let declared = declared[id],
                let respond = responders[id] ?? fallback
            else { return nil }
            return respond(Call(declared, path: path, request: request))
        }
        served = .success(handler)
    }

    /// Why the declaration's document could not be served: every request gets a 500 saying so.
    private struct DocumentFailure: Error {
        var reason: String

        var response: ServerResponse {
            let body: JSONValue = .object([
                "error": .string("invalid_declaration"),
                "message": .string("the declaration's OpenAPI document cannot be served: \(reason)"),
            ])
            return .json(body.serialized(pretty: true), status: 500)
        }
    }
}

extension ContractHandler.Call {
    /// The call of `operation` made by `request`, its parameters read as the declaration names them.
    init(_ operation: APIOperation, path: [String: String], request: ServerRequest) {
        var values: [String: String] = [:]
        for parameter in operation.parameters {
            let name = parameter.name
            switch parameter.location {
            case .path: values[name] = path[name].map { $0.removingPercentEncoding ?? $0 }
            case .query: values[name] = request.query.first { $0.name == name }?.value
            case .header: values[name] = request.headers[name]
            }
        }
        // The checks parsed a JSON body already; the request keeps it.
        let json = operation.takesJSON ? try? request.bodyJSON.get() : nil  // allowed: checked before
        self.init(operation: operation, values: values, json: json, request: request)
    }
}

extension APIOperation {
    /// Whether the operation's body is a JSON document, which validation must read whole.
    package var takesJSON: Bool {
        if case .json = body { return true }
        return false
    }
}
