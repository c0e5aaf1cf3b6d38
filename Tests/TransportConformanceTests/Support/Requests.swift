import Courier
import CourierTesting
import Foundation
import MockServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Builders shared by the conformance tests.
extension MockServer {
    /// A request for `path` (with its query) on this server.
    func request(
        _ path: String, method: String = "GET", headers: [String: String] = [:], timeout: TimeInterval = 30
    ) throws -> URLRequest {
        let url = try #require(URL(string: baseURL.absoluteString + path))
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }
}

extension TransportResponse {
    /// The body decoded as an `Echo`.
    func echo() throws -> Echo {
        try JSONDecoder().decode(Echo.self, from: body.data)
    }
}

/// Sends and expects a `CourierError`, returning it (nil after recording an issue).
func expectCourierError(
    _ transport: any Transport, _ request: TransportRequest, sourceLocation: SourceLocation = #_sourceLocation
) async -> CourierError? {
    do {
        let response = try await transport.sendThroughManager(request)
        Issue.record("expected an error, got status \(response.status)", sourceLocation: sourceLocation)
        return nil
    } catch let error as CourierError {
        return error
    } catch {
        Issue.record(
            "expected a CourierError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
