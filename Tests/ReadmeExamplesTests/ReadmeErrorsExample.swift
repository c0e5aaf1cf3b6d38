import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches a text in a task of its own, or says why it could not.
func fetchText(_ path: String, with manager: NetworkManager) async -> String {
    let task = Task {
        do throws(CourierError) {  // in a closure, without `throws(CourierError)` the error is `any Error`
            return try await manager.send(URLRequest(url: URL(string: path)!), as: String.self).value
        } catch {
            return "failed (\(error.code.category)): \(error.message)"
        }
    }
    return await task.value
}
