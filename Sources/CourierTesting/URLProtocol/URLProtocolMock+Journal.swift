import CourierPrimitives
import Foundation
import MockServer

/// The request journal and verification, as the admin API gives them (`/__admin/requests`,
/// `/__admin/requests/count`, `/__admin/near-misses/request-pattern`), asked in process.
extension URLProtocolMock {
    /// One request the mock received.
    public struct LoggedRequest: Sendable, Hashable {
        /// The method.
        public var method: String
        /// The request-target (path and query).
        public var url: String
        /// The body as text (empty when there was none).
        public var body: String
        /// Whether a stub or handler answered it.
        public var wasMatched: Bool
    }

    /// The requests received, oldest first.
    /// - Throws: ``URLProtocolMockError`` when the journal cannot be read.
    public func journal() throws(URLProtocolMockError) -> [LoggedRequest] {
        let value = try admin("GET", "/__admin/requests")
        guard case .array(let entries)? = value["requests"] else {
            throw URLProtocolMockError("the journal is not readable: \(value)")
        }
        return entries.reversed().map { entry in
            LoggedRequest(
                method: entry["request"]?["method"]?.stringValue ?? "",
                url: entry["request"]?["url"]?.stringValue ?? "",
                body: entry["request"]?["body"]?.stringValue ?? "",
                wasMatched: entry["wasMatched"]?.boolValue ?? false)
        }
    }

    /// How many received requests match a WireMock request pattern.
    /// - Parameter pattern: the pattern's JSON, e.g. `{"method": "POST", "urlPath": "/notes"}`.
    /// - Returns: the count.
    /// - Throws: ``URLProtocolMockError`` when the pattern is not valid.
    public func count(matching pattern: String) throws(URLProtocolMockError) -> Int {
        let value = try admin("POST", "/__admin/requests/count", body: pattern)
        guard let count = value["count"]?.intValue else {
            throw URLProtocolMockError("the pattern was refused: \(value)")
        }
        return count
    }

    /// Checks that exactly `expected` received requests match `pattern`.
    /// - Parameters:
    ///   - pattern: a WireMock request pattern's JSON.
    ///   - expected: the number of requests that should match.
    /// - Throws: ``URLProtocolMockError`` with the actual count and the closest requests when it differs.
    public func verify(_ pattern: String, count expected: Int = 1) throws(URLProtocolMockError) {
        let actual = try count(matching: pattern)
        guard actual != expected else { return }
        let misses = try admin("POST", "/__admin/near-misses/request-pattern", body: pattern)
        var lines = ["expected \(expected) request(s) matching \(pattern), received \(actual)"]
        if case .array(let nearMisses)? = misses["nearMisses"] {
            for miss in nearMisses {
                let method = miss["request"]?["method"]?.stringValue ?? "?"
                let url = miss["request"]?["url"]?.stringValue ?? "?"
                lines.append("  near miss: \(method) \(url)")
            }
        }
        throw URLProtocolMockError(lines.joined(separator: "\n"))
    }

    /// Throws when any request went unanswered.
    /// - Throws: ``URLProtocolMockError`` listing them with their near misses.
    public func verifyNoUnmatchedRequests() throws(URLProtocolMockError) {
        let unmatched = unmatchedRequests
        guard !unmatched.isEmpty else { return }
        throw URLProtocolMockError(
            "\(unmatched.count) request(s) matched no stub or handler", unmatched: unmatched)
    }

    private func admin(_ method: String, _ path: String, body: String = "") throws(URLProtocolMockError)
        -> JSONValue
    {
        let request = ServerRequest(
            method: method, target: path, headers: ServerHeaders([("Host", "localhost")]),
            body: Data(body.utf8),
            remoteAddress: "in-process")
        let answer = server.answerInProcess(request)
        do {
            return try JSONValue.parse(answer.body)
        } catch {
            throw URLProtocolMockError(
                "the admin API answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
    }
}

/// Makes a ``URLProtocolMock``, runs `body` with it, and always closes it; then fails when any request
/// went unanswered, listing each with its near misses.
/// - Parameters:
///   - configuration: the stub settings.
///   - handlers: handlers tried after the stubs.
///   - allowUnmatched: whether an unanswered request is allowed (it still gets the 404).
///   - cassette: a cassette that answers instead of the stubs (recording as its mode allows); saved
///     when `body` returns.
///   - body: the test.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws, ``MockServerError`` for a bad mappings folder,
///   ``URLProtocolMockError`` for unanswered requests, or the file system's error saving the cassette.
public func withURLProtocolMock<T: Sendable>(
    configuration: MockServerConfiguration = .init(), handlers: [any HTTPHandler] = [],
    allowUnmatched: Bool = false, cassette: Cassette? = nil, _ body: (URLProtocolMock) async throws -> T
) async throws -> T {
    let mock = try URLProtocolMock(configuration: configuration, handlers: handlers, cassette: cassette)
    defer { mock.close() }
    let result = try await body(mock)
    if !allowUnmatched { try mock.verifyNoUnmatchedRequests() }
    try cassette?.save()
    return result
}
