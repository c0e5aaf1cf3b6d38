import Courier
import CourierPrimitives
import Foundation
import Testing

@testable import CourierCache

/// `stale-if-error` (RFC 5861 §4): a stale response may stand in for a server error.
extension HTTPCacheTests {
    /// What the server does when asked again.
    enum Failure: Sendable, CustomStringConvertible {
        case status(Int)
        case error(CourierError.Code)

        var description: String {
            switch self {
            case .status(let status): "\(status)"
            case .error(let code): "\(code)"
            }
        }
    }

    /// The stored `Cache-Control`, how long after it was stored it is asked for again, what the
    /// server does then, and whether the stale response is served.
    static let staleIfErrorCases: [(String, TimeInterval, Failure, Bool)] = [
        ("max-age=10, stale-if-error=60", 20, .status(503), true),
        ("max-age=10, stale-if-error=60", 20, .status(500), true),
        ("max-age=10, stale-if-error=60", 20, .status(502), true),
        ("max-age=10, stale-if-error=60", 20, .status(504), true),
        ("max-age=10, stale-if-error=60", 20, .error(.connectionLost), true),
        ("max-age=10, stale-if-error=60", 20, .error(.cannotConnect), true),
        ("max-age=10, stale-if-error=60", 20, .error(.timedOut), true),
        ("max-age=10, stale-if-error=60", 20, .error(.cancelled), false),
        ("max-age=10, stale-if-error=60", 20, .status(404), false),
        ("max-age=10, stale-if-error=60", 20, .status(501), false),
        ("max-age=10, stale-if-error=60", 80, .status(503), false),
        ("max-age=10, stale-if-error=60, must-revalidate", 20, .status(503), false),
        ("max-age=10, stale-if-error=60, no-cache", 20, .status(503), false),
        ("max-age=10", 20, .status(503), false),
        ("max-age=10", 20, .error(.connectionLost), false),
    ]

    @Test(
        "a stale response inside its stale-if-error window answers a 5xx or a lost server",
        arguments: staleIfErrorCases)
    func staleIfError(cacheControl: String, after: TimeInterval, failure: Failure, servesStale: Bool)
        async throws
    {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try cache()
        let clock = self.clock
        let failing = Locked(false)
        let next: @Sendable (TransportRequest) async throws -> TransportResponse = { request in
            if failing.withLock({ $0 }) {
                switch failure {
                case .status(let status):
                    return TransportResponse(
                        status: status, headers: ["Content-Type": "text/plain"], url: request.url)
                case .error(let code): throw CourierError(code, "the server is away", request: request)
                }
            }
            return TransportResponse(
                status: 200,
                headers: HTTPHeaders([
                    ("Cache-Control", cacheControl), ("ETag", "\"x\""), ("Date", Self.httpDate(clock.now)),
                ]),
                body: .data(Data("v1".utf8)), url: request.url)
        }
        let request = TransportRequest(method: .get, url: Self.url)
        let context = InterceptorContext(originalRequest: request)
        _ = try await cache.intercept(request, context: context, next: next)
        clock.advance(after)
        failing.withLock { $0 = true }
        if servesStale {
            let stale = try await cache.intercept(request, context: context, next: next)
            #expect(stale.status == 200)
            #expect(stale.source == .cache)
            #expect(stale.body.data == Data("v1".utf8))
        } else if case .status(let status) = failure {
            let answer = try await cache.intercept(request, context: context, next: next)
            #expect(answer.status == status)
            #expect(answer.source == .network)
        } else if case .error(let code) = failure {
            let error = await #expect(throws: CourierError.self) {
                try await cache.intercept(request, context: context, next: next)
            }
            #expect(error?.code == code)
        }
    }
}
