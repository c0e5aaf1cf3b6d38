import Courier
import Foundation

extension APIConfigurable {
    /// Builds the request against `base` (the endpoint's own `baseURL` wins over it): method,
    /// path, timeout, parameters, headers.
    ///
    /// - Parameter base: the base URL to resolve `path` against; `nil` leaves it relative.
    /// - Throws: `CourierError.Code.invalidURL`, `.invalidHeader` or `.invalidParameters`.
    public func makeRequest(baseURL base: URL?) throws -> TransportRequest {
        let path = self.path.endpointPath
        if let problem = path.problem { throw CourierError(.invalidURL, problem) }
        let method = self.method
        if method != .get { try HTTPMethod.validate(method.rawValue) }
        var request = TransportRequest(
            method: method, url: try URL.joining(path: path.text, base: baseURL ?? base))
        if let timeout { request.options.idleTimeout = timeout }
        try encodeParameters(into: &request)
        for field in headerFields {
            try HTTPHeaders.validate(name: field.name, value: field.value)
            request.headers.replaceOrAdd(name: field.name, value: field.value)
        }
        return request
    }
}
