import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live ``URLProtocolMock`` scopes, by token and by the hosts they serve: how
/// ``CourierURLProtocol`` finds the mock a request belongs to.
final class URLProtocolRegistry: Sendable {
    static let shared = URLProtocolRegistry()

    private struct State {
        var scopes: [String: URLProtocolMock] = [:]
        /// Lowercased host → the token of the scope serving it.
        var hosts: [String: String] = [:]
    }

    private let state = Locked(State())

    func add(_ mock: URLProtocolMock) {
        state.withLock { $0.scopes[mock.token] = mock }
    }

    func remove(_ mock: URLProtocolMock) {
        state.withLock { state in
            state.scopes[mock.token] = nil
            state.hosts = state.hosts.filter { $0.value != mock.token }
        }
    }

    /// Claims `host` for `mock`; a host already served by another live scope is refused.
    func claim(_ host: String, for mock: URLProtocolMock) throws(URLProtocolMockError) {
        let key = host.lowercased()
        let holder: String? = state.withLock { state in
            if let holder = state.hosts[key], holder != mock.token { return holder }
            state.hosts[key] = mock.token
            return nil
        }
        if let holder {
            throw URLProtocolMockError(
                "the host \(host) is already served by another URLProtocolMock (\(holder)); parallel tests "
                    + "need hosts of their own, or the scope header on their requests")
        }
    }

    /// The mock a request belongs to: by its scope header, else by its host.
    func mock(for request: URLRequest) -> URLProtocolMock? {
        let token = request.value(forHTTPHeaderField: CourierURLProtocol.scopeHeader)
        let host = request.url?.host?.lowercased()
        return state.withLock { state in
            if let token { return state.scopes[token] }
            guard let host else { return nil }
            if let token = state.hosts[host] { return state.scopes[token] }
            return nil
        }
    }
}
