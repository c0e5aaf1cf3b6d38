import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An endpoint declared as data: method, path, parameters and headers.
///
/// Declare each API as an enum whose cases are its calls:
///
/// ```swift
/// enum OnboardingEndPoint: APIConfigurable {
///     case login(email: String, password: String)
///
///     var method: HTTPMethod { .post }
///     var path: EndpointPath { "/auth/login" }
///     var parameters: any ParameterConvertible {
///         switch self {
///         case .login(let email, let password):
///             JSONBody(Credentials(email: email, password: password))
///         }
///     }
/// }
/// ```
///
/// `path` is relative: `NetworkManager` resolves it against its configured base URL, so
/// the same enum works against production and a mock server on port 0. Give `baseURL`
/// to pin an endpoint to one host, and `validation` or `decoder` (from
/// `TransportRequestConvertible`) to choose other than the manager's.
public protocol APIConfigurable: TransportRequestConvertible {
    /// The HTTP method.
    var method: HTTPMethod { get }
    /// The path, relative to the base URL, such as `/posts/42`. Put user input in with
    /// `"/posts/\(segment: id)"` (or `PathComponent`) so that it is percent-encoded and
    /// `..`, `.`, empty segments and `/` are refused with `.invalidURL`.
    var path: EndpointPath { get }
    /// The parameters. Default: none.
    var parameters: any ParameterConvertible { get }
    /// Extra header fields. Default: none.
    var headers: HTTPHeaders { get }
    /// An absolute base URL for this endpoint. Default `nil`: the manager's base URL.
    var baseURL: URL? { get }
    /// An idle timeout for this endpoint. Default `nil`: the manager's.
    var timeout: Duration? { get }
}

extension APIConfigurable {
    public var parameters: any ParameterConvertible { NoParameters() }
    public var headers: HTTPHeaders { HTTPHeaders() }
    public var baseURL: URL? { nil }
    public var timeout: Duration? { nil }
}
