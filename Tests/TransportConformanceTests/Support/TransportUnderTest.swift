import Courier
import CourierCurl
import Foundation
import Testing

/// One transport the conformance suite runs against.
struct TransportUnderTest: Sendable, CustomTestStringConvertible {
    enum Kind: Sendable {
        case curl
        case urlsession
        case stub
    }

    let kind: Kind

    /// Whether the transport reports the HTTP version. Documented difference:
    /// FoundationNetworking delivers no task metrics on Linux, so URLSessionTransport
    /// leaves `httpVersion` nil.
    var reportsHTTPVersion: Bool { kind == .curl }

    var testDescription: String {
        switch kind {
        case .curl: "CurlTransport"
        case .urlsession: "URLSessionTransport"
        case .stub: "StubTransport"
        }
    }

    /// The socket transports plus `StubTransport`, for the round trips a stub can answer
    /// (echo and status routes; no redirects, timeouts, TLS or framing).
    static let allWithStub: [TransportUnderTest] = all + [TransportUnderTest(kind: .stub)]

    /// Every transport that talks to a real socket.
    static let all: [TransportUnderTest] = [
        TransportUnderTest(kind: .curl), TransportUnderTest(kind: .urlsession),
    ]

    /// Runs `body` with a fresh transport and shuts it down afterwards.
    func with<T: Sendable>(
        caBundle: URL? = nil, _ body: (any Transport) async throws -> T
    ) async throws -> T {
        switch kind {
        case .curl:
            return try await CurlTransport.with(configuration: .init(caBundle: caBundle)) {
                try await body($0)
            }
        case .urlsession:
            // No custom-CA option exists on Linux (see TLSTests); `caBundle` is ignored.
            return try await body(URLSessionTransport())
        case .stub:
            return try await body(StubTransport { try StubRoutes.respond($0) })
        }
    }
}

/// A failure to set up a test fixture (not a transport failure).
struct ConformanceSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
