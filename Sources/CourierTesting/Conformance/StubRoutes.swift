import Courier
import Foundation

/// The conformance routes that make sense without a socket (`/echo…`, `/status/N`),
/// answered in memory for `StubTransport`, the same way `ConformanceRoutes` answers them.
package enum StubRoutes {
    /// The in-memory answer to `request`.
    package static func respond(_ request: StubTransport.RecordedRequest) throws -> StubResponse {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? request.url.path
        if path.hasPrefix("/status/"), let code = Int(path.dropFirst("/status/".count)) {
            let body = code == 204 || code == 304 ? Data() : Data("status \(code)".utf8)
            return .data(body, status: code, headers: ["Content-Type": "text/plain; charset=utf-8"])
        }
        guard path.hasPrefix("/echo") else {
            return .data(Data("no stub route for \(path)".utf8), status: 404)
        }
        let query = components?.percentEncodedQuery.map { "?" + $0 } ?? ""
        let echo = Echo(
            method: request.method.rawValue, target: path + query, path: path,
            query: (components?.queryItems ?? []).map { [$0.name, $0.value ?? ""] },
            headers: request.headers.map { [$0.name, $0.value] },
            body: request.body.base64EncodedString(), bodyLength: request.bodyLength, bodySHA256: nil)
        return .data(try JSONEncoder().encode(echo), headers: ["Content-Type": "application/json"])
    }
}
