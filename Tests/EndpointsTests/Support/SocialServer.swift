import Courier
import CourierCurl
import CourierURLSession
import Endpoints
import Foundation
import MockServer
import SocialBackend
import Testing

/// The transports every endpoint is checked over.
enum TestTransport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case curl
    case urlsession

    var testDescription: String { rawValue }

    func make() -> any Transport {
        switch self {
        case .curl: CurlTransport()
        case .urlsession: URLSessionTransport()
        }
    }
}

/// Runs `body` against an in-process mock server on port 0 with a seeded social backend.
func withSocialServer<T: Sendable>(
    seed: Int = 12, _ body: (MockServer, SocialBackend) async throws -> T
) async throws -> T {
    let backend = try SocialBackend(seedCount: seed)
    defer { backend.removeStorage() }
    return try await withMockServer(handlers: [backend]) { server in try await body(server, backend) }
}

/// A fresh temporary folder, removed by the caller.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "endpoints-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
