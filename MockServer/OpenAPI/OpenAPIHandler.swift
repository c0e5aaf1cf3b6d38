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
///
/// ``OpenAPIMockOptions`` go beyond the document: resources kept between requests (`stateful`), the
/// credentials protected operations take, and how an operation that declares no 4xx refuses.
public struct OpenAPIHandler: HTTPHandler {
    /// The document served.
    public let document: OpenAPIDocument
    /// The seed of generated values: the same seed gives the same answers.
    public let seed: UInt64
    /// What the mock does beyond the document.
    public let options: OpenAPIMockOptions
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

    /// The resources kept between requests, when `options.stateful`.
    private let store: StatefulStore?

    /// Serves `document`.
    /// - Parameters:
    ///   - document: a loaded document.
    ///   - seed: the seed of generated answers.
    ///   - options: state, credentials and refusals beyond the document.
    public init(
        document: OpenAPIDocument, seed: UInt64 = 0, options: OpenAPIMockOptions = OpenAPIMockOptions()
    ) {
        self.document = document
        self.seed = seed
        self.options = options
        router = OpenAPIRouter(document: document)
        check = RequestCheck(document: document, credentials: options.credentials)
        builder = ResponseBuilder(document: document, seed: seed)
        store = options.stateful ? StatefulStore(document: document, builder: builder) : nil
    }

    /// Loads and serves the document at `url`.
    /// - Parameters:
    ///   - url: a JSON or YAML OpenAPI 3.0 or 3.1 document.
    ///   - seed: the seed of generated answers.
    ///   - options: state, credentials and refusals beyond the document.
    /// - Throws: `OpenAPIDocumentError` when the document cannot be read or is invalid (with the JSON
    ///   pointer of each problem).
    public init(
        contentsOf url: URL, seed: UInt64 = 0, options: OpenAPIMockOptions = OpenAPIMockOptions()
    ) throws(OpenAPIDocumentError) {
        self.init(document: try OpenAPIDocument.load(from: url), seed: seed, options: options)
    }

    /// The header naming the refusal a request would have had, on an answer that `UndeclaredRefusal.accept`
    /// let through.
    public static let refusalHeader = "Courier-Mock-Refusal"

    /// The number of operations served.
    public var operationCount: Int { router.count }

    /// Refuses, before stubs are tried, a request to an operation of the document that breaks it.
    public func gate(_ request: ServerRequest) -> ServerResponse? {
        guard
            case .operation(let operation, let path) = router.match(
                method: request.method, path: request.path)
        else { return nil }
        guard case .refuse(let response) = verdict(request, operation, path: path) else { return nil }
        return response
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
            switch verdict(request, operation, path: path) {
            case .refuse(let response):
                return response
            case .pass:
                return answer(request, operation, path: path)
            case .accepted(let refusal):
                var response = answer(request, operation, path: path)
                response.headers.add(name: Self.refusalHeader, value: refusal)
                return response
            }
        }
    }

    private enum Verdict {
        case pass
        case refuse(ServerResponse)
        /// Refused, but let through by `UndeclaredRefusal.accept`; the refusal in a line.
        case accepted(String)
    }

    /// Whether the request is refused, and how: by the operation's declared statuses, else by
    /// `options.undeclaredRefusals`.
    private func verdict(_ request: ServerRequest, _ operation: OpenAPIOperation, path: [String: String])
        -> Verdict
    {
        guard var refusal = check.check(request, operation, path: path) else { return .pass }
        if !operation.declaresClientErrors {
            switch options.undeclaredRefusals {
            case .standard: break
            case .status(let status): refusal.status = status
            case .accept:
                let line = "\(refusal.status) " + refusal.problems.map(\.sentence).joined(separator: "; ")
                // A header value: printable ASCII only.
                let printable = line.unicodeScalars.map {
                    (32..<127).contains($0.value) ? Character($0) : "?"
                }
                return .accepted(String(printable))
            }
        }
        return .refuse(builder.refusal(refusal, operation))
    }

    /// The answer to a valid request: from the responder if it answers, else from the stored resources
    /// when stateful (unless `Prefer` asks for a declared answer), else from the document.
    private func answer(_ request: ServerRequest, _ operation: OpenAPIOperation, path: [String: String])
        -> ServerResponse
    {
        if let answer = responder?(operation, path, request) { return answer }
        if let store, request.headers["Prefer"] == nil,
            let response = store.respond(to: request, operation, path: path)
        {
            return response
        }
        return builder.respond(to: request, operation)
    }
}

extension OpenAPIOperation {
    /// Whether the operation declares an answer for a refused request: a 4xx status, the `4XX` range or
    /// `default`.
    var declaresClientErrors: Bool {
        responses.keys.contains { key in
            key == "default" || key.uppercased() == "4XX" || Int(key).map { (400...499).contains($0) } == true
        }
    }
}
