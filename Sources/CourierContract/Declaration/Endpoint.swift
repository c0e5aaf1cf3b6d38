import Courier
import CourierContractModel
import CourierPrimitives
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
/// another type does not compile), `operations` (for `OpenAPIWriter`, the mock server's
/// contract routing and validation, and `courier call`), and the schemas of the models
/// (`Schema.of(_:)`).
public protocol API: SendableMetatype {
    /// The first part of every operation id. Default: the type's name without a trailing
    /// `EndPoint`, `Endpoint` or `API`, its first letter lowercased (`NotesEndPoint` → `notes`).
    static var group: String { get }
    /// One call of every operation, with values that work: the operations are read from
    /// these, and they serve as examples.
    static var samples: [any EndpointDescribing] { get }
    /// The model of an error response body, if the API has one.
    static var errorSchema: Schema? { get }
    /// The names of the functions that declare operations, such as `["list", "note", "create"]`,
    /// for checking `samples` against. Default: empty, which checks nothing.
    ///
    /// Swift cannot list a type's static functions at run time, so an operation left out of
    /// `samples` is otherwise invisible: it is missing from the OpenAPI document, the mock
    /// server's routing and provider verification. When this list is given, `sampleProblems`
    /// names every listed operation without a sample (and every sample not listed), and the
    /// contract check, `verify` and `mock` report them. A function missing from both this list
    /// and `samples` still goes unseen.
    static var declaredOperations: [String] { get }
    /// The media type of the error responses' bodies. Default: `application/json`.
    static var errorContentType: String { get }
    /// Whether every operation also declares the statuses a request that breaks its declaration is
    /// refused with (400 for one with parameters or a body, 415 for one with a body, as Courier's mock
    /// server answers, and 401 for one that takes credentials). Default: true. False declares exactly
    /// the statuses `errors` lists, as declarations generated from a document do.
    static var declaresRefusals: Bool { get }
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

    public static var declaredOperations: [String] { [] }

    public static var errorContentType: String { "application/json" }

    public static var declaresRefusals: Bool { true }

    /// What is wrong between `samples` and `declaredOperations`: an operation declared but
    /// without a sample, a sample of an operation not declared there, an operation sampled
    /// twice. Empty when all agree (or when `declaredOperations` is empty: then only an
    /// operation sampled twice is reported).
    public static var sampleProblems: [String] {
        let sampled = samples.map { $0.operation.id }
        var problems: [String] = []
        var seen: Set<String> = []
        for id in sampled where !seen.insert(id).inserted {
            problems.append("\(id) has more than one sample in \(Self.self).samples")
        }
        guard !declaredOperations.isEmpty else { return problems }
        for name in declaredOperations where !seen.contains("\(group).\(name)") {
            problems.append(
                "\(group).\(name) is declared but has no sample in \(Self.self).samples: it is missing from the "
                    + "OpenAPI document, the mock's routing and verification")
        }
        let declared = Set(declaredOperations.map { "\(group).\($0)" })
        for id in seen.sorted() where !declared.contains(id) {
            problems.append("\(id) has a sample but is not in \(Self.self).declaredOperations")
        }
        return problems
    }

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
    ///   - status: the success status, whose body `Response` decodes. Default 200; `nil` for an
    ///     operation that states no success response (one answered only with errors or a redirect,
    ///     or whose document lists no responses).
    ///   - otherStatuses: further success statuses, answered with the same body (a `200` beside a
    ///     `201`).
    ///   - auth: whether the operation needs a bearer token (401 is then declared too).
    ///   - security: the ways the operation takes credentials, any one of them (401 is then declared
    ///     too); `auth: true` adds `.bearer`.
    ///   - contentType: the success response's media type. Default `application/json`.
    ///   - errors: other error statuses it may answer with (unless `declaresRefusals` is false, 400 is
    ///     declared for any operation with parameters or a body, 415 for any operation with a body).
    ///   - emptyErrors: error statuses it answers with no body, declared without the API's
    ///     `errorSchema` (a 401 with no body beside a 422 with one).
    ///   - errorSchemas: error statuses whose body has a model other than the API's `errorSchema`,
    ///     with that model. Evaluated once per operation, when its description is first made.
    ///   - function: the declaring function's name (filled in by the compiler), which names the
    ///     operation.
    ///   - parts: the parameters (`Path`, `Query`, `Header`) and the body (`Body`,
    ///     `FileUpload`, `MultipartFile`), each with this call's value.
    public static func endpoint<Response: Decodable & Sendable>(
        _ method: HTTPMethod, _ path: String, _ summary: String, status: Int? = 200,
        otherStatuses: [Int] = [],
        auth: Bool = false, security: [SecurityScheme] = [], contentType: String = "application/json",
        errors: [Int] = [], emptyErrors: [Int] = [],
        errorSchemas: @autoclosure @escaping @Sendable () -> [Int: Schema] = [:],
        function: String = #function,
        @EndpointBuilder _ parts: () -> [EndpointPart]
    ) -> Endpoint<Response> {
        Endpoint(
            declaration: .init(
                api: Self.self, function: function, method: method, path: path, summary: summary,
                status: status, otherStatuses: otherStatuses,
                security: (auth && !security.contains(.bearer) ? [.bearer] : []) + security,
                contentType: contentType, errors: errors, emptyErrors: emptyErrors, errorSchemas: errorSchemas
            ),
            parts: parts())
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
    /// Which responses count as success for this call; `nil` uses the manager's.
    var validation: Validation? { get }
    /// The decoder for this call's response body; `nil` uses the manager's.
    var decoder: (any ResponseBodyDecoder)? { get }
}

/// One call of a declared operation, carrying its response type.
///
/// Made by the declaring function (see `API`); send it with `NetworkManager.send(_:)`, which
/// returns a `Response<Response>`. A call holds only its values: the operation's description
/// (schemas, responses) is made once per operation, the first time it is asked for.
public struct Endpoint<Response: Decodable & Sendable>: EndpointDescribing {
    private let declaration: EndpointDeclaration
    private let parts: [EndpointPart]
    /// Which responses count as success for this call; `nil` uses the manager's. Set it with
    /// `validated(by:)`.
    public private(set) var validation: Validation?
    /// The decoder for this call's response body; `nil` uses the manager's. Set it with
    /// `decoded(with:)`.
    public private(set) var decoder: (any ResponseBodyDecoder)?

    init(declaration: EndpointDeclaration, parts: [EndpointPart]) {
        self.declaration = declaration
        self.parts = parts
    }

    /// The declared operation, described once per operation and then shared by every call.
    public var operation: APIOperation {
        OperationDescriptions.shared.operation(
            for: .init(declaration: declaration, response: ObjectIdentifier(Response.self))
        ) {
            declaration.describe(
                parts: parts,
                responseSchema: Response.self == EmptyResponse.self ? nil : Schema.of(Response.self))
        }
    }

    /// The values of this call's parameters, as text, by name.
    public var arguments: [String: String] {
        var arguments: [String: String] = [:]
        for part in parts {
            if case .parameter(let parameter, .success(let value?)) = part.kind, let text = value.scalarText {
                arguments[parameter.name] = text
            }
        }
        return arguments
    }

    /// The method.
    package var method: HTTPMethod { declaration.method }

    /// The header parameters' values.
    package var headers: HTTPHeaders {
        var headers = HTTPHeaders()
        for part in parts {
            if case .parameter(let parameter, .success(let value?)) = part.kind,
                parameter.location == .header,
                let text = value.scalarText
            {
                headers[parameter.name] = text
            }
        }
        return headers
    }

    /// Builds the request.
    /// - Throws: `CourierError` `.invalidParameters` naming a parameter whose value cannot be
    ///   encoded, and why; `.invalidURL` when a path value is missing or unsafe (`..`, a `/`, a
    ///   control character); or what encoding the body throws.
    public func makeRequest(baseURL base: URL?) throws -> TransportRequest {
        var segments: [String: String] = [:]
        var query: [String: ParameterValue] = [:]
        var headers: [(name: String, value: String)] = []
        var body: (any ParameterConvertible)?
        for part in parts {
            switch part.kind {
            case .parameter(let parameter, let encoded):
                let value: ParameterValue?
                switch encoded {
                case .success(let encoded): value = encoded
                case .failure(let error):
                    throw CourierError(
                        .invalidParameters,
                        "\(parameter.location.rawValue) parameter \(parameter.name.debugDescription) cannot be "
                            + "encoded: \(error.message)", underlying: error)
                }
                switch parameter.location {
                case .path:
                    // A path needs one value; a list or an object cannot fill a segment.
                    guard let value, let text = value.scalarText else {
                        let problem = value.map { "must be a single value, not \($0)" } ?? "has no value"
                        throw CourierError(.invalidURL, "path parameter \(parameter.name) \(problem)")
                    }
                    do {
                        segments[parameter.name] = try PathComponent(text).encoded
                    } catch {
                        throw CourierError(.invalidURL, "\(parameter.name): \(error.message)")
                    }
                // A list or an object goes in the query as it is.
                case .query: if let value { query[parameter.name] = value }
                case .header: if let text = value?.scalarText { headers.append((parameter.name, text)) }
                }
            case .body(_, let encoder):
                body = encoder
            }
        }
        let path = PathTemplate.fill(declaration.path, with: segments)
        var request = TransportRequest(method: method, url: try URL.joining(path: path, base: base))
        // Lists as OpenAPI's default query style (form, exploded) writes them: `tags=a&tags=b`.
        if !query.isEmpty { try URLQuery(query, arrays: .repeatedKeys).encode(into: &request) }
        try body?.encode(into: &request)
        for field in headers {
            try HTTPHeaders.validate(name: field.name, value: field.value)
            request.headers.replaceOrAdd(name: field.name, value: field.value)
        }
        return request
    }

    /// This call with its own rules for which responses count as success, instead of the
    /// manager's: an operation whose 404 carries a body worth decoding, or one that must
    /// answer JSON.
    ///
    /// ```swift
    /// let call = NotesAPI.note(id: "n1").validated(by: Validation(acceptableStatusCodes: [200, 404]))
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
