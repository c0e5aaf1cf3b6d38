import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import Foundation
import MockServer

/// Serves any declared API: routes its operations, refuses a request that breaks its
/// declaration with a status that says why (401 without a bearer token on an operation declared
/// with `auth: true`, 400 for a parameter, 415 for a body of another media type, the declared
/// 422 (else 400) for a body that breaks its schema, each naming the parameter or JSON path, with
/// the operation's declared error body when it has one), and answers from a responder or,
/// failing that, an example built from the operation's response schema (marked with
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
    private let router: PathRouter<APIOperation>

    /// Serves `operations`.
    public init(operations: [APIOperation], responders: [String: Responder] = [:]) {
        self.operations = operations
        self.responders = responders
        router = ContractRouter.router(operations)
    }

    /// Serves every operation of `api`.
    public init<A: API>(_ api: A.Type, responders: [String: Responder] = [:]) {
        self.init(operations: A.operations, responders: responders)
    }

    /// This handler with `respond` answering `operation` instead of the example.
    public func responding(to operation: APIOperation, _ respond: @escaping Responder) -> ContractHandler {
        var copy = self
        copy.responders[operation.id] = respond
        return copy
    }

    /// Refuses, before stubs are tried, a request to a declared operation that breaks its
    /// declaration.
    public func gate(_ request: ServerRequest) -> ServerResponse? {
        guard case .operation(let operation, let path) = route(request) else { return nil }
        if case .failure(let violation) = validate(request, operation, path) {
            return Self.refusal(violation, operation)
        }
        return nil
    }

    /// Answers a declared operation: 405 for a known path with another method, else the
    /// responder's answer or the example.
    public func handle(_ request: ServerRequest) -> ServerResponse? {
        switch route(request) {
        case .noRoute:
            return nil
        case .methodNotAllowed(let allowed):
            var response = Self.error(405, "method_not_allowed", "use \(allowed.joined(separator: ", "))")
            response.headers.add(name: "Allow", value: allowed.joined(separator: ", "))
            return response
        case .operation(let operation, let path):
            switch validate(request, operation, path) {
            case .failure(let violation): return Self.refusal(violation, operation)
            case .success(let call):
                if let responder = responders[operation.id] { return responder(call) }
                guard let schema = operation.success.schema else {
                    return ServerResponse(
                        status: operation.successStatus,
                        headers: [ServerResponse.exampleAnswerHeader: "example"])
                }
                let body = (try? schema.example().prettyData()) ?? Data("{}".utf8)
                return ServerResponse(
                    status: operation.successStatus,
                    headers: [
                        "Content-Type": "application/json", ServerResponse.exampleAnswerHeader: "example",
                    ],
                    body: .data(body))
            }
        }
    }

    private func route(_ request: ServerRequest) -> ContractRouter.Match {
        ContractRouter.match(method: request.method, path: request.path, with: router)
    }

    private func validate(_ request: ServerRequest, _ operation: APIOperation, _ path: [String: String])
        -> Result<Call, ContractViolation>
    {
        if operation.requiresAuth,
            !operation.security.contains(where: { scheme in
                scheme.isPresent(
                    header: { request.headers[$0] },
                    query: { name in request.query.first { $0.name == name }?.value })
            })
        {
            let names = operation.security.map(\.name).joined(separator: " or ")
            return .failure(
                ContractViolation(
                    status: 401, parameter: "Authorization",
                    reason: operation.security == [.bearer]
                        ? "a bearer token is required" : "credentials are required: \(names)"))
        }
        do {
            // The body's JSON is parsed once for the gate and the answer (a spilled body read back
            // from disk), shared by every copy of the request.
            let validated = try operation.validate(
                pathParameters: path, query: request.query, header: { request.headers[$0] }, body: nil,
                hasBody: request.bodyFile != nil || !request.body.isEmpty,
                parsedBody: { try? request.bodyJSON.get() })
            return .success(
                Call(operation: operation, values: validated.values, json: validated.json, request: request))
        } catch {
            return .failure(error)
        }
    }

    /// The answer to a request that breaks the declaration: the operation's declared error body
    /// for the status when it has one (an example of its schema with the error code, message and
    /// parameter filled in where it has such properties), else a JSON error.
    private static func refusal(_ violation: ContractViolation, _ operation: APIOperation) -> ServerResponse {
        let code =
            switch violation.status {
            case 401: "unauthorized"
            case 415: "unsupported_media_type"
            case 422: "unprocessable_content"
            default: "bad_request"
            }
        var facts: [String: String] = [
            "error": code, "code": code, "message": violation.description, "reason": violation.description,
            "detail": violation.description,
        ]
        if let parameter = violation.parameter { facts["parameter"] = parameter }
        var body: JSONValue
        if let schema = operation.response(for: violation.status)?.schema {
            body = schema.example()
            if case .object(var members) = body, case .object(let properties, _) = schema.unwrapped {
                for property in properties {
                    guard let fact = facts[property.name], case .string = property.schema.unwrapped else {
                        continue
                    }
                    members[property.name] = .string(fact)
                }
                body = .object(members)
            }
        } else {
            var members: [String: JSONValue] = [
                "error": .string(code), "message": .string(violation.description),
            ]
            if let parameter = violation.parameter { members["parameter"] = .string(parameter) }
            body = .object(members)
        }
        var headers: ServerHeaders = ["Content-Type": "application/json"]
        let challenges = operation.security.compactMap(\.challenge)
        if violation.status == 401 {
            // An operation that takes only API keys has no HTTP challenge to name.
            if !challenges.isEmpty || !operation.requiresAuth {
                headers.add(
                    name: "WWW-Authenticate",
                    value: challenges.isEmpty ? "Bearer" : challenges.joined(separator: ", "))
            }
        }
        return ServerResponse(
            status: violation.status, headers: headers, body: .data((try? body.prettyData()) ?? Data()))
    }

    private static func error(_ status: Int, _ code: String, _ message: String) -> ServerResponse {
        let body: JSONValue = .object(["error": .string(code), "message": .string(message)])
        return ServerResponse(
            status: status, headers: ["Content-Type": "application/json"],
            body: .data((try? body.prettyData()) ?? Data()))
    }
}

extension APIOperation {
    /// Whether the operation's body is a JSON document, which validation must read whole.
    package var takesJSON: Bool {
        if case .json = body { return true }
        return false
    }
}
