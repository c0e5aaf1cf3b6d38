import Courier
import CourierCurl
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches the posts one after another on the transport's own thread: no request or
/// response wakes another thread.
func fetchPosts(_ ids: [Int], from base: URL, over transport: CurlTransport) async throws -> [Data] {
    let manager = NetworkManager(transport: transport)
    return try await withTaskExecutorPreference(transport.executor) {
        var bodies: [Data] = []
        for id in ids {
            let request = URLRequest(url: base.appendingPathComponent("posts/\(id)"))
            bodies.append(try await manager.sendRaw(request).value)
        }
        return bodies
    }
}
