import Courier
import CourierCookies
import Foundation
import MockServer
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport conformance suite, as a function any `Transport` can be run through.
///
/// It checks what a transport must do for one exchange: send the request it is given and
/// return the response, a 3xx included. Redirects, the cookies of each hop and the checks of
/// the method and headers run above the transport, in `NetworkManager`, the same way over
/// every transport.
///
/// Each check makes a fresh transport, talks to a mock server started on a free loopback
/// port, and shuts the transport down. Nothing here depends on a test framework: the suite
/// returns a `Report`, and a test asserts that it has no failures.
///
/// The checks, by the prefix of their names:
/// - `roundTrip.`: methods, queries, headers, bodies (data, form, multipart, file, stream),
///   gzip, downloads to a file, progress, and status codes returned rather than thrown;
/// - `failures.` and `limits.`: timeouts, refused and lost connections, cancellation, the
///   response size limit, an unwritable destination;
/// - `streaming.`: `stream(_:)` hands the body over whole and as it arrives, fails on a cut
///   body, stops the transfer when its consumer is cancelled or drops it, and holds the
///   transfer back (or, if it cannot pause, fails with `.responseTooLarge`) while the
///   consumer is behind;
/// - `events.`, `cookies.`, `httpCache.`, `resumableDownload.`: a `NetworkManager` on the
///   transport reads server-sent events and reconnects with `Last-Event-ID`, keeps cookies
///   in its jar (each `Set-Cookie` field apart, the `Cookie` header sent as given) on every
///   hop and for their own host only, answers from and revalidates its
///   `HTTPCache`, and resumes a cut download with `Range` and `If-Range`.
///
/// A transport that wraps another passes `stream(_:)` on as well as `send(_:)`: the default
/// `stream(_:)` refuses, which fails the `streaming.` and `events.` checks.
///
/// ```swift
/// import CourierURLSession
///
/// @Test func myTransportConforms() async {
///     let report = await TransportConformance.run { URLSessionTransport() }  // yours, made afresh
///     #expect(report.failures.isEmpty, "\(report)")
/// }
/// ```
public enum TransportConformance {
    /// One named check of the suite.
    public struct Check: Sendable, CustomStringConvertible {
        /// The check's name, such as "roundTrip.queryAndHeaders".
        public let name: String
        /// Whether the check needs a transport that talks to a socket (framing, timeouts,
        /// refused connections); an in-memory transport runs only the others.
        public let needsSocket: Bool
        let body: @Sendable (ConformanceContext) async throws -> Void

        init(
            _ name: String, needsSocket: Bool = true,
            _ body: @escaping @Sendable (ConformanceContext) async throws -> Void
        ) {
            self.name = name
            self.needsSocket = needsSocket
            self.body = body
        }

        public var description: String { name }
    }

    /// Something a check found wrong.
    public struct Failure: Sendable, CustomStringConvertible {
        /// The check's name.
        public let check: String
        /// What went wrong.
        public let message: String

        public var description: String { "\(check): \(message)" }
    }

    /// What a run found.
    public struct Report: Sendable, CustomStringConvertible {
        /// The names of the checks that ran, in order.
        public let checked: [String]
        /// Everything that went wrong; empty when the transport conforms.
        public let failures: [Failure]

        /// Whether every check passed.
        public var passed: Bool { failures.isEmpty }

        public var description: String {
            let head = "\(checked.count) checks, \(failures.count) failures"
            return ([head] + failures.map { "- \($0)" }).joined(separator: "\n")
        }
    }

    /// Every check of the suite.
    public static let checks: [Check] = roundTripChecks + failureChecks + featureChecks

    /// Runs checks against transports `makeTransport` makes, one fresh transport per check.
    ///
    /// - Parameters:
    ///   - checks: the checks to run; all of them by default.
    ///   - socket: whether the transport talks to a socket; false skips the checks that need
    ///     one (`Check.needsSocket`) and the framing assertions of the others.
    ///   - makeTransport: makes a transport; it is shut down after its check.
    /// - Returns: the checks that ran and what they found; a server that cannot start is
    ///   reported as a failure of the check named "setup".
    public static func run(
        _ checks: [Check] = checks, socket: Bool = true,
        makeTransport: @escaping @Sendable () async throws -> any Transport
    ) async -> Report {
        let selected = checks.filter { socket || !$0.needsSocket }
        var failures: [Failure] = []
        do {
            try await withConformanceServer { server in
                for check in selected {
                    let transport: any Transport
                    do {
                        transport = try await makeTransport()
                    } catch {
                        failures.append(
                            Failure(check: check.name, message: "could not make the transport: \(error)"))
                        continue
                    }
                    let context = ConformanceContext(server: server, socket: socket, transport: transport)
                    do {
                        try await check.body(context)
                    } catch {
                        context.record("threw \(error)")
                    }
                    await transport.shutdown()
                    failures += context.failures.map { Failure(check: check.name, message: $0) }
                }
            }
        } catch {
            failures.append(Failure(check: "setup", message: "the mock server did not start: \(error)"))
        }
        return Report(checked: selected.map(\.name), failures: failures)
    }
}

/// What a check works with, and where it records what it found wrong.
final class ConformanceContext: Sendable {
    let server: MockServer
    /// Whether the transport talks to a socket.
    let socket: Bool
    let transport: any Transport
    private let found = Mutex<[String]>([])

    init(server: MockServer, socket: Bool, transport: any Transport) {
        self.server = server
        self.socket = socket
        self.transport = transport
    }

    var failures: [String] { found.withLock { $0 } }

    /// Records `message` unless `condition` holds.
    func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { record(message()) }
    }

    /// Records `message` unless `actual == expected`, showing both.
    func expectEqual<T: Equatable>(_ actual: T, _ expected: T, _ what: String) {
        if actual != expected { record("\(what): expected \(expected), got \(actual)") }
    }

    func record(_ message: String) {
        found.withLock { $0.append(message) }
    }

    /// A request for `path` on the server.
    func request(
        _ path: String, method: String = "GET", headers: [String: String] = [:], timeout: TimeInterval = 30
    ) throws -> URLRequest {
        guard let url = URL(string: server.baseURL.absoluteString + path) else {
            throw ConformanceSetupError("not a URL: \(path)")
        }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// Sends `request` through the transport.
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await transport.send(request)
    }

    /// Sends and decodes the echo.
    func echo(_ request: TransportRequest) async throws -> Echo {
        let response = try await send(request)
        return try JSONDecoder().decode(Echo.self, from: response.body.data)
    }

    /// Sends `path` through `manager` and decodes the echo.
    func echo(
        _ manager: NetworkManager, _ path: String, headers: [String: String] = [:]
    ) async throws -> Echo {
        let response = try await manager.sendRaw(try request(path, headers: headers))
        return try JSONDecoder().decode(Echo.self, from: response.value)
    }

    /// A manager on the transport under test, as an app would make one.
    func manager(
        interceptors: [any Interceptor] = [], cookieJar: CookieJar? = CookieJar()
    ) -> NetworkManager {
        NetworkManager(
            transport: transport, baseURL: server.baseURL, interceptors: interceptors, cookieJar: cookieJar)
    }

    /// `path` with a query of `items`, each value percent-encoded.
    func path(_ path: String, query items: KeyValuePairs<String, String>) -> String {
        let encoded = items.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)"
        }
        return path + "?" + encoded.joined(separator: "&")
    }

    /// `prefix` and a component no other check uses, for routes whose requests a check counts on
    /// the server, which all checks of a run share.
    func uniquePath(_ prefix: String) -> String { "\(prefix)/\(UUID().uuidString)" }

    /// The requests that reached the server for `path` (without its query), oldest first.
    func received(_ path: String) -> [ServerRequest] {
        server.journaledRequests.filter { $0.path == path }
    }

    /// Expects the transport to answer a plain request, after one that was stopped.
    func expectStillWorks() async throws {
        let after = try await send(TransportRequest(urlRequest: try request("/status/200")))
        expectEqual(after.status, 200, "status of a request after the stopped one")
    }

    /// Runs `attempt` (which says what it got when nothing is thrown), expecting a
    /// `CourierError`; records a failure and returns nil otherwise.
    private func expectError(_ attempt: () async throws -> String) async -> CourierError? {
        do {
            let outcome = try await attempt()
            record("expected an error, got \(outcome)")
            return nil
        } catch let error as CourierError {
            return error
        } catch {
            record("expected a CourierError, got \(type(of: error)): \(error)")
            return nil
        }
    }

    /// Runs `attempt`, expecting a `CourierError` with `code`.
    func expectError(code: CourierError.Code, _ what: String, _ attempt: () async throws -> String) async {
        guard let error = await expectError(attempt) else { return }
        if error.code != code { record("\(what): expected \(code), got \(error.code): \(error.message)") }
    }

    /// Sends, expecting a `CourierError` with `code`.
    func expectError(_ request: TransportRequest, code: CourierError.Code, _ what: String) async {
        await expectError(code: code, what) { "status \(try await send(request).status)" }
    }
}
