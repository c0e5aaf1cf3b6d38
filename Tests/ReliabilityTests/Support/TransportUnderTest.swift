import Courier
import CourierCurl
import Foundation
import Testing

/// The two real transports every client-side reliability test runs over.
enum TransportUnderTest: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case curl
    case urlSession

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh transport and shuts it down afterwards.
    func with<T: Sendable>(_ body: (any Transport) async throws -> T) async throws -> T {
        switch self {
        case .curl:
            return try await CurlTransport.with { try await body($0) }
        case .urlSession:
            return try await body(URLSessionTransport())
        }
    }
}
