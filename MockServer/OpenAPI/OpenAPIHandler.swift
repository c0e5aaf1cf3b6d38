import CourierOpenAPI
import CourierPrimitives
import Foundation
import MockServer

/// Serves an OpenAPI document as a validating mock: every operation routed (path templates, the
/// servers' base paths), each request checked (security, parameters by style, the body by media type and
/// schema) and refused with a 400, 401, 415 or 422 naming the parameter or JSON path and the rule, and
/// each answer taken from the document's examples or generated from the response schema.
///
/// A request may choose its answer as with Prism: `Prefer: code=404`, `Prefer: example=NAME`,
/// `Prefer: dynamic=true` (a fresh value from the schema instead of the examples).
///
/// ```swift
/// let pets = try OpenAPIHandler(contentsOf: URL(fileURLWithPath: "openapi.yaml"), seed: 7)
/// let status = try await withMockServer(handlers: [pets]) { server in
///     let (_, response) = try await URLSession.shared.data(from: server.baseURL.appendingPathComponent("pets"))
///     return (response as? HTTPURLResponse)?.statusCode
/// }
/// ```
///
/// Validation runs before WireMock stubs (`gate(_:)`), so a stub added for one operation changes its
/// answers while requests to it are still checked.
public struct OpenAPIHandler: HTTPHandler {
    /// The document served.
    public let document: OpenAPIDocument
    /// The seed of generated values: the same seed gives the same answers.
    public let seed: UInt64
    private let router: OpenAPIRouter
    private let check: RequestCheck
    private let builder: ResponseBuilder
    /// Answers a request that passed the document's checks in place of its examples; `nil` from it
    /// leaves the request to them. A layer serving the document with answers of its own sets it.
    package var responder: Responder?

    /// Answers an operation's request that passed the checks: the operation, its path variables (still
    /// percent-encoded) and the request; `nil` to answer from the document.
    package typealias Responder =
        @Sendable (_ operation: OpenAPIOperation, _ path: [String: String], _ request: ServerRequest) ->
        ServerResponse?

    /// Serves `document`.
    /// - Parameters:
    ///   - document: a loaded document.
    ///   - seed: the seed of generated answers.
    public init(document: OpenAPIDocument, seed: UInt64 = 0) {
        self.document = document
        self.seed = seed
        router = OpenAPIRouter(document: document)
        check = RequestCheck(document: document)
        builder = ResponseBuilder(document: document, seed: seed)
    }

    /// Loads and serves the document at `url`.
    /// - Parameters:
    ///   - url: a JSON or YAML OpenAPI 3.0 or 3.1 document.
    ///   - seed: the seed of generated answers.
    /// - Throws: `OpenAPIDocumentError` when the document cannot be read or is invalid (with the JSON
    ///   pointer of each problem).
    public init(contentsOf url: URL, seed: UInt64 = 0) throws(OpenAPIDocumentError) {
        self.init(document: try OpenAPIDocument.load(from: url), seed: seed)
    }

    /// The number of operations served.
    public var operationCount: Int { router.count }

    /// Refuses, before stubs are tried, a request to an operation of the document that breaks it.
    public func gate(_ request: ServerRequest) -> ServerResponse? {
        guard
            case .operation(let operation, let path) = router.match(
                method: request.method, path: request.path)
        else { return nil }
        return check.check(request, operation, path: path).map { builder.refusal($0, operation) }
    }

    /// Answers an operation of the document; 405 with `Allow` for a known path and another method.
    public func handle(_ request: ServerRequest) -> ServerResponse? {
        switch router.match(method: request.method, path: request.path) {
        case .noRoute:
            return nil
        case .methodNotAllowed(let allowed):
            var response = builder.problem(
                405, "method_not_allowed",
                "\(request.method) is not declared here; use \(allowed.joined(separator: ", "))")
            response.headers.add(name: "Allow", value: allowed.joined(separator: ", "))
            return response
        case .operation(let operation, let path):
            if let refusal = check.check(request, operation, path: path) {
                return builder.refusal(refusal, operation)
            }
            if let answer = responder?(operation, path, request) { return answer }
            return builder.respond(to: request, operation)
        }
    }
}
