import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An API declared once: a namespace (an enum without cases) whose static functions each
/// declare one operation and return a typed `Endpoint` for it.
///
/// ```swift
/// enum NotesAPI: API {
///     static func note(id: String) -> Endpoint<Note> {
///         endpoint(.get, "/notes/{id}", "One note", errors: [404]) {
///             Path("id", id)
///         }
///     }
///     static let samples: [any EndpointDescribing] = [note(id: "n1")]
/// }
/// let note = try await manager.send(NotesAPI.note(id: "n1")).value   // a Note
/// ```
///
/// From the declarations come the requests (`send` returns `Response<Note>`; asking for
/// another type does not compile), `operations` (for `OpenAPIDocument`, the mock server's
/// contract routing and validation, and `courier call`), and the schemas of the models
/// (`Schema.of(_:)`).
public protocol API {
    /// The first part of every operation id. Default: the type's name without a trailing
    /// `EndPoint`, `Endpoint` or `API`, its first letter lowercased (`PostsEndPoint` → `posts`).
    static var group: String { get }
    /// One call of every operation, with values that work: the operations are read from
    /// these, and they serve as examples.
    static var samples: [any EndpointDescribing] { get }
    /// The model of an error response body, if the API has one.
    static var errorSchema: Schema? { get }
}

extension API {
    public static var group: String {
        var name = String(describing: Self.self)
        for suffix in ["EndPoint", "Endpoint", "API"]
        where name.hasSuffix(suffix) && name.count > suffix.count {
            name.removeLast(suffix.count)
            break
        }
        return name.prefix(1).lowercased() + name.dropFirst()
    }

    public static var errorSchema: Schema? { nil }

    /// Every operation, in the order of `samples`.
    public static var operations: [APIOperation] { samples.map(\.operation) }

    /// Declares the operation of the calling function and binds this call's values.
    ///
    /// The operation id is `group.name`, where `name` is the calling function's name.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - path: the path template; each `{name}` is filled by a `Path` part.
    ///   - summary: one line on what the operation does.
    ///   - status: the success status. Default 200.
    ///   - auth: whether the operation needs a bearer token (401 is then declared too).
    ///   - errors: other error statuses it may answer with (400 is declared for any operation
    ///     with parameters or a body).
    ///   - function: the declaring function's name (filled in by the compiler), which names the
    ///     operation.
    ///   - parts: the parameters (`Path`, `Query`, `Header`) and the body (`Body`,
    ///     `FileUpload`, `MultipartFile`), each with this call's value.
    public static func endpoint<Response: Decodable & Sendable>(
        _ method: HTTPMethod, _ path: String, _ summary: String, status: Int = 200, auth: Bool = false,
        errors: [Int] = [], function: String = #function, @EndpointBuilder _ parts: () -> [EndpointPart]
    ) -> Endpoint<Response> {
        let name = String(function.prefix { $0 != "(" })
        return Endpoint(
            id: "\(group).\(name)", method: method, path: path, summary: summary, status: status, auth: auth,
            errors: errors, errorSchema: errorSchema, parts: parts())
    }
}

/// What every `Endpoint` offers whatever its response type: its operation, its values, and
/// the request it makes.
///
/// Not a `URLRequestConvertible`: an endpoint is sent with `NetworkManager.send(_:)`, which
/// decodes its own response type, so `send(_:as:)` with another type does not compile.
public protocol EndpointDescribing: Sendable {
    /// The declared operation.
    var operation: APIOperation { get }
    /// The values of this call's parameters, as text, by name (for examples and catalogs).
    var arguments: [String: String] { get }
    /// Builds the request against `baseURL`.
    /// - Throws: `CourierError` with an invalid-request code.
    func makeRequest(baseURL: URL?) throws -> TransportRequest
    /// Which responses count as success for this call; `nil` (the default) uses the manager's.
    var validation: Validation? { get }
    /// The decoder for this call's response body; `nil` (the default) uses the manager's.
    var decoder: (any ResponseBodyDecoder)? { get }
}

extension EndpointDescribing {
    public var validation: Validation? { nil }
    public var decoder: (any ResponseBodyDecoder)? { nil }
}

/// One call of a declared operation, carrying its response type.
///
/// Made by the declaring function (see `API`); send it with `NetworkManager.send(_:)`, which
/// returns a `Response<Response>`.
public struct Endpoint<Response: Decodable & Sendable>: EndpointDescribing {
    public let operation: APIOperation
    public let arguments: [String: String]
    private let pathSegments: [String: String]
    private let pathError: CourierError?
    private let query: [String: ParameterValue]
    private let body: (any ParameterConvertible)?
    /// The header parameters' values.
    package let headers: HTTPHeaders
    /// Which responses count as success for this call; `nil` uses the manager's. Set it with
    /// `validated(by:)`.
    public private(set) var validation: Validation?
    /// The decoder for this call's response body; `nil` uses the manager's. Set it with
    /// `decoded(with:)`.
    public private(set) var decoder: (any ResponseBodyDecoder)?

    init(
        id: String, method: HTTPMethod, path: String, summary: String, status: Int, auth: Bool, errors: [Int],
        errorSchema: Schema?, parts: [EndpointPart]
    ) {
        var parameters: [APIOperation.Parameter] = []
        var declaredBody: APIOperation.Body?
        var arguments: [String: String] = [:]
        var segments: [String: String] = [:]
        var pathError: CourierError?
        var query: [String: ParameterValue] = [:]
        var headers = HTTPHeaders()
        var body: (any ParameterConvertible)?
        for part in parts {
            switch part.kind {
            case .parameter(let parameter, let value):
                parameters.append(parameter)
                // A list or an object goes in the query as it is; a path needs one value.
                if let value, parameter.location == .query { query[parameter.name] = value }
                guard let value, let text = value.scalarText else {
                    if parameter.location == .path {
                        let problem = value.map { "must be a single value, not \($0)" } ?? "has no value"
                        pathError =
                            pathError
                            ?? CourierError(.invalidURL, "path parameter \(parameter.name) \(problem)")
                    }
                    continue
                }
                arguments[parameter.name] = text
                switch parameter.location {
                case .path:
                    do {
                        segments[parameter.name] = try PathComponent(text).encoded
                    } catch {
                        pathError =
                            pathError ?? CourierError(.invalidURL, "\(parameter.name): \(error.message)")
                    }
                case .query: break
                case .header: headers[parameter.name] = text
                }
            case .body(let declared, let encoder):
                declaredBody = declared
                body = encoder
            }
        }
        let hasInput = !parameters.isEmpty || declaredBody != nil
        var statuses = (hasInput ? [400] : []) + (auth ? [401] : []) + errors
        statuses = statuses.reduce(into: []) { unique, status in
            if !unique.contains(status) { unique.append(status) }
        }
        operation = APIOperation(
            id: id, method: method, path: path, summary: summary, requiresAuth: auth, parameters: parameters,
            body: declaredBody,
            success: .init(
                status, summary, Response.self == EmptyResponse.self ? nil : Schema.of(Response.self)),
            errors: statuses.map { .init($0, HTTPStatus.reason(for: $0), errorSchema) })
        self.arguments = arguments
        pathSegments = segments
        self.pathError = pathError
        self.query = query
        self.body = body
        self.headers = headers
    }

    /// The method.
    package var method: HTTPMethod { operation.method }

    /// The path with every `{name}` replaced by its percent-encoded value.
    package var path: String {
        operation.pathSegments.map { segment -> String in
            guard segment.hasPrefix("{"), segment.hasSuffix("}") else { return String(segment) }
            return pathSegments[String(segment.dropFirst().dropLast())] ?? String(segment)
        }
        .reduce("") { $0 + "/" + $1 }
    }

    /// Builds the request.
    /// - Throws: `CourierError` `.invalidURL` when a path value is unsafe (`..`, a `/`, a
    ///   control character), or what encoding the body throws.
    public func makeRequest(baseURL base: URL?) throws -> TransportRequest {
        if let pathError { throw pathError }
        var request = TransportRequest(method: method, url: try RequestBuilding.url(path: path, base: base))
        // Lists as OpenAPI's default query style (form, exploded) writes them: `tags=a&tags=b`.
        if !query.isEmpty { try URLQuery(query, arrays: .repeatedKeys).encode(into: &request) }
        try body?.encode(into: &request)
        for field in headers {
            try RequestBuilding.validateHeader(name: field.name, value: field.value)
            request.headers.replaceOrAdd(name: field.name, value: field.value)
        }
        return request
    }

    /// This call with its own rules for which responses count as success, instead of the
    /// manager's: an operation whose 404 carries a body worth decoding, or one that must
    /// answer JSON.
    ///
    /// ```swift
    /// endpoint(.get, "/notes/{id}", "One note", errors: [404]) { Path("id", id) }
    ///     .validated(by: Validation(acceptableStatusCodes: [200, 404]))
    /// ```
    /// - Parameter validation: the statuses and content types to accept.
    /// - Returns: the endpoint with `validation` set.
    public func validated(by validation: Validation) -> Endpoint {
        var copy = self
        copy.validation = validation
        return copy
    }

    /// This call with its own decoder for the response body, instead of the manager's: a
    /// service that answers in snake_case, or with dates in seconds.
    /// - Parameter decoder: the decoder, such as a `CourierJSONDecoder` with other strategies.
    /// - Returns: the endpoint with `decoder` set.
    public func decoded(with decoder: any ResponseBodyDecoder) -> Endpoint {
        var copy = self
        copy.decoder = decoder
        return copy
    }
}

/// The reason phrases used for declared error responses.
enum HTTPStatus {
    static func reason(for status: Int) -> String {
        switch status {
        case 400: "Bad Request: a parameter or the body breaks the declaration"
        case 401: "Unauthorized: missing, invalid or expired token"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        default: "Status \(status)"
        }
    }
}
