import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An endpoint declared as data: method, path, parameters and headers; the classic way to
/// declare an API, beside `API` and `Endpoint`.
///
/// Declare each API as an enum whose cases are its calls, with Courier's typed values:
///
/// ```swift
/// enum AccountEndPoint: APIConfigurable {
///     case login(email: String, password: String)
///     case profile(id: String)
///
///     var method: HTTPMethod {
///         switch self {
///         case .login: .post
///         case .profile: .get
///         }
///     }
///     var path: EndpointPath {
///         switch self {
///         case .login: "/auth/login"
///         case .profile(let id): "/users/\(id)"  // one percent-encoded segment; "../x" is refused
///         }
///     }
///     var parameters: any ParameterConvertible {
///         switch self {
///         case .login(let email, let password): JSONBody(["email": email, "password": password])
///         case .profile: NoParameters()
///         }
///     }
/// }
/// ```
///
/// or in the plain form many codebases already have, which Courier reads as it is written:
/// `type` (`RequestType`, such as `.POST`) for the method, a `String` path (relative, or an
/// absolute URL), `[String: Any]` parameters (a JSON body, or the query for `GET`, `HEAD` and
/// `DELETE`) and `[String: String]?` headers:
///
/// ```swift
/// enum SignupEndPoint: APIConfigurable {
///     case signup(name: String?, email: String)
///
///     var type: RequestType { .POST }
///     var path: String { "https://api.example.com/signup" }
///     var headers: [String: String]? { ["X-Client": "ios"] }
///     var parameters: [String: Any] {
///         switch self {
///         case .signup(let name, let email): ["Name": name ?? "", "Email": email]
///         }
///     }
/// }
/// let request = SignupEndPoint.signup(name: nil, email: "a@example.com").asURLRequest()
/// ```
///
/// A relative `path` is resolved against the manager's base URL, so the same enum works
/// against production and a mock server on port 0; `baseURL` pins an endpoint to one host.
/// A `parameters`, `headers`, `path` or `type` of a type Courier cannot read does not compile
/// (the conformance fails), so no property is ever silently ignored.
public protocol APIConfigurable: URLRequestConvertible {
    /// The type of `path`: `EndpointPath` or `String`.
    associatedtype PathRepresentation: EndpointPathConvertible
    /// The type of `parameters`: a `ParameterConvertible` (or `any ParameterConvertible`), or a
    /// dictionary such as `[String: Any]`. Default: none.
    associatedtype ParameterRepresentation = NoParameters
    /// The type of `headers`: `HTTPHeaders`, `[String: String]` or `[String: String]?`.
    associatedtype HeaderRepresentation = HTTPHeaders
    /// The type of `type`: `RequestType` (`HTTPMethod`).
    associatedtype MethodRepresentation = HTTPMethod

    /// The HTTP method. Default: `type`.
    var method: HTTPMethod { get }
    /// The HTTP method under its other common name. Default `.get`; write `method` or `type`.
    var type: MethodRepresentation { get }
    /// The path, relative to the base URL such as `/notes/42`, or an absolute URL. In an
    /// `EndpointPath`, an interpolated value is one checked, percent-encoded segment.
    var path: PathRepresentation { get }
    /// The parameters. Default: none.
    var parameters: ParameterRepresentation { get }
    /// Extra header fields. Default: none.
    var headers: HeaderRepresentation { get }
    /// An absolute base URL for this endpoint. Default `nil`: the manager's base URL.
    var baseURL: URL? { get }
    /// An idle timeout for this endpoint. Default `nil`: the manager's.
    var timeout: Duration? { get }

    /// Puts `parameters` into `request`. Derived from the type of `parameters`: do not write it.
    /// - Throws: `CourierError` with code `.invalidParameters` or `.invalidBody`.
    func encodeParameters(into request: inout TransportRequest) throws
    /// `headers` as fields. Derived from the type of `headers`: do not write it.
    var headerFields: HTTPHeaders { get }
}

/// The classic name of the method's type: `var type: RequestType { .POST }`.
public typealias RequestType = HTTPMethod

extension APIConfigurable {
    public var baseURL: URL? { nil }
    public var timeout: Duration? { nil }
}

extension APIConfigurable where MethodRepresentation == HTTPMethod {
    public var type: HTTPMethod { .get }
    public var method: HTTPMethod { type }
}

extension APIConfigurable where ParameterRepresentation == NoParameters {
    public var parameters: NoParameters { NoParameters() }
}

extension APIConfigurable where HeaderRepresentation == HTTPHeaders {
    public var headers: HTTPHeaders { HTTPHeaders() }
}

extension APIConfigurable where ParameterRepresentation: ParameterConvertible {
    public func encodeParameters(into request: inout TransportRequest) throws {
        try parameters.encode(into: &request)
    }
}

extension APIConfigurable where ParameterRepresentation == any ParameterConvertible {
    public func encodeParameters(into request: inout TransportRequest) throws {
        try parameters.encode(into: &request)
    }
}

extension APIConfigurable where ParameterRepresentation: ParameterDictionary {
    public func encodeParameters(into request: inout TransportRequest) throws {
        try DictionaryParameters(parameters.parameterValues()).encode(into: &request)
    }
}

extension APIConfigurable where HeaderRepresentation: HeaderFieldsConvertible {
    public var headerFields: HTTPHeaders { headers.headerFields }
}

extension APIConfigurable {
    /// The request with the method, the URL from `path` (against `baseURL` when it is
    /// relative), the headers and the parameters, or `nil` when one of them is invalid. Send the
    /// endpoint itself with `NetworkManager` to learn why one is.
    public func asURLRequest() -> URLRequest? {
        try? makeRequest(baseURL: nil).flattenedURLRequest
    }
}
