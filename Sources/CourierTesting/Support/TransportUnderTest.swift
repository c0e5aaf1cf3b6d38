import Courier
import Foundation

/// A transport a test runs against, made fresh for each use and shut down after it.
///
/// ```swift
/// import CourierURLSession
///
/// let mine = TransportUnderTest(name: "URLSessionTransport") { _ in URLSessionTransport() }
/// try await mine.with { transport in _ = try await transport.send(TransportRequest(url: baseURL)) }
/// ```
public struct TransportUnderTest: Sendable, CustomStringConvertible {
    /// Which implementation it is, for the few checks where transports differ by design.
    public enum Kind: Sendable, Hashable {
        case curl
        case urlsession
        case stub
        /// A transport from outside Courier.
        case other
    }

    /// Which implementation it is.
    public let kind: Kind
    /// The name tests show.
    public let name: String
    private let factory: @Sendable (_ caBundle: URL?) async throws -> any Transport

    /// Describes a transport.
    ///
    /// - Parameters:
    ///   - name: the name tests show.
    ///   - kind: which implementation it is.
    ///   - make: makes a fresh transport, trusting the CA bundle when one is given (a
    ///     transport that cannot may ignore it).
    public init(
        name: String, kind: Kind = .other,
        make: @escaping @Sendable (_ caBundle: URL?) async throws -> any Transport
    ) {
        self.name = name
        self.kind = kind
        factory = make
    }

    /// Whether the transport reports the HTTP version. FoundationNetworking delivers no task
    /// metrics on Linux, so URLSessionTransport leaves `httpVersion` nil.
    public var reportsHTTPVersion: Bool { kind == .curl }

    public var description: String { name }

    /// Makes a fresh transport.
    /// - Parameter caBundle: a CA bundle to trust, where the transport can.
    /// - Throws: what the factory throws.
    public func make(caBundle: URL? = nil) async throws -> any Transport {
        try await factory(caBundle)
    }

    /// Runs `body` with a fresh transport and shuts it down on every exit path.
    ///
    /// - Parameters:
    ///   - caBundle: a CA bundle to trust, where the transport can.
    ///   - body: the work to do with the transport.
    /// - Returns: what `body` returns.
    /// - Throws: what making the transport or `body` throws.
    public func with<T: Sendable>(
        caBundle: URL? = nil, _ body: (any Transport) async throws -> T
    ) async throws -> T {
        let transport = try await make(caBundle: caBundle)
        do {
            let result = try await body(transport)
            await transport.shutdown()
            return result
        } catch {
            await transport.shutdown()
            throw error
        }
    }
}

extension TransportUnderTest {
    /// `StubTransport` answering the conformance routes that need no socket (`/echo…`, `/status/N`).
    package static let stub = TransportUnderTest(name: "StubTransport", kind: .stub) { _ in
        StubTransport { try StubRoutes.respond($0) }
    }
}
