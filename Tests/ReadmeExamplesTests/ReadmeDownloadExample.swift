import Courier
import CourierInterceptors
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads a large file. A cut connection is resumed by the retry policy, and a run that
/// stopped part way is resumed by the next call: only the missing bytes are asked for.
func fetchLargeFile(from url: URL, to file: URL, transport: any Transport) async throws -> Int64 {
    let manager = NetworkManager(transport: transport, interceptors: [RetryPolicy(maxAttempts: 5)])
    let response = try await manager.download(URLRequest(url: url), to: file) { progress in
        _ = progress.fraction  // after a resume, this counts the bytes already in the file
    }
    guard case .file(_, let byteCount) = response.body else { return 0 }
    return byteCount
}
