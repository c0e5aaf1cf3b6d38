import Courier
import CourierInterceptors
import Foundation
import MockServer
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A model the hostile bodies are decoded into.
struct Item: Decodable, Sendable, Equatable {
    var id: String
    var likes: Int
}

/// A hostile response body and the decoding error it must give.
struct BodyCase: Sendable, CustomTestStringConvertible {
    var name: String
    var body: String
    var contentType: String
    /// A fragment the error's coding path must contain, when the body is valid JSON of the wrong shape.
    var codingPath: String?
    var testDescription: String { name }
}

/// Hostile responses: undecodable bodies and bodies over the size limit.
extension HostileClientTests {
    static let bodies: [BodyCase] = [
        .init(name: "invalid JSON", body: "{not json at all", contentType: "application/json"),
        .init(
            name: "wrong type", body: #"[{"id":"1","likes":2},{"id":"2","likes":"many"}]"#,
            contentType: "application/json", codingPath: "likes"),
        .init(
            name: "missing key", body: #"[{"id":"1","likes":2},{"likes":3}]"#,
            contentType: "application/json",
            codingPath: "id"),
        .init(name: "object not array", body: #"{"items":[]}"#, contentType: "application/json"),
        .init(
            name: "truncated JSON", body: #"[{"id":"1","likes":2},{"id":"2","li"#,
            contentType: "application/json"),
        .init(name: "empty body", body: "", contentType: "application/json"),
        .init(name: "HTML error page", body: "<html><body>Oops</body></html>", contentType: "text/html"),
        .init(name: "null", body: "null", contentType: "application/json"),
        .init(
            name: "invalid UTF-8", body: "[{\"id\":\"\u{FFFD}\",\"likes\":1e999}]",
            contentType: "application/json"),
    ]

    @Test(arguments: bodies, TransportUnderTest.allCases)
    func undecodableBodyGivesADecodingErrorWithASnippet(
        _ hostile: BodyCase, over transport: TransportUnderTest
    )
        async throws
    {
        let served = Counter()
        let handler = ClosureHandler { _ in
            served.increment()
            return ServerResponse(
                headers: ["Content-Type": hostile.contentType], body: .data(Data(hostile.body.utf8)))
        }
        let error = try await withMockServer(handlers: [handler]) { server in
            try await transport.with { client in
                let manager = NetworkManager(
                    transport: client, baseURL: server.baseURL,
                    interceptors: [RetryPolicy(maxAttempts: 3, baseDelay: .seconds(0.01))])
                return try await withDeadline(seconds: 15) { () -> CourierError? in
                    do {
                        _ = try await manager.send(HostileEndpoint.rawPath("list"), as: [Item].self)
                        return nil
                    } catch let error as CourierError {
                        return error
                    }
                }
            }
        }
        #expect(
            error?.code == .decodingFailed,
            "\(hostile.name): \(error.map(String.init(describing:)) ?? "decoded")")
        #expect(error?.category == .decoding)
        #expect(error?.status == 200)
        #expect(served.count == 1, "a decoding failure must not be retried")
        if !hostile.body.isEmpty {
            let snippet = try #require(error?.bodySnippet)
            #expect(hostile.body.hasPrefix(snippet.replacingOccurrences(of: "…", with: "")))
            #expect(error?.description.contains(String(hostile.body.prefix(10))) == true)
        }
        if let fragment = hostile.codingPath {
            let path = try #require(error?.codingPath)
            #expect(path.contains(fragment) && path.contains("1"), "coding path \(path)")
        }
    }

    /// How the oversized body is framed.
    enum Framing: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case contentLength
        case chunked
        var testDescription: String { rawValue }
    }

    @Test(arguments: Framing.allCases, TransportUnderTest.allCases)
    func responseLargerThanTheLimitIsRefused(_ framing: Framing, over transport: TransportUnderTest)
        async throws
    {
        let served = Counter()
        let attempts = AttemptLog()
        let body = Data(repeating: UInt8(ascii: "z"), count: 64 * 1024)
        // A path of this case's own: only its requests are counted, not a stray one from a test
        // that ran earlier on the same port.
        let path = "big-\(UUID().uuidString)"
        let handler = ClosureHandler { request in
            guard request.path == "/items/\(path)" else { return nil }
            served.increment()
            switch framing {
            case .contentLength:
                return ServerResponse(body: .data(body))
            case .chunked:
                return ServerResponse(
                    body: .data(body),
                    dribble: ChunkedDribble(numberOfChunks: 8, totalDuration: .milliseconds(40)))
            }
        }
        let error = try await withMockServer(handlers: [handler]) { server in
            try await transport.with { client in
                let manager = NetworkManager(
                    transport: client, baseURL: server.baseURL,
                    transferOptions: TransferOptions(maxResponseBytes: 10_000, idleTimeout: .seconds(5)),
                    interceptors: [RetryPolicy(maxAttempts: 3, baseDelay: .seconds(0.01)), attempts])
                return try await withDeadline(seconds: 15) { () -> CourierError? in
                    do {
                        _ = try await manager.sendRaw(HostileEndpoint.rawPath(path))
                        return nil
                    } catch let error as CourierError {
                        return error
                    }
                }
            }
        }
        #expect(
            error?.code == .responseTooLarge,
            "\(framing): \(error.map(String.init(describing:)) ?? "accepted")")
        #expect(error?.category == .transport)
        #expect(served.count == 1, "responseTooLarge must not be retried; attempts: \(attempts.outcomes)")
        #expect((error?.body?.count ?? 0) <= 10_000)
    }
}

/// Records how each attempt under a retry policy ended, so a failure says why it was retried.
final class AttemptLog: Interceptor {
    private let log = Mutex<[String]>([])

    var outcomes: [String] { log.withLock { $0 } }

    func intercept(
        _ request: TransportRequest, context: InterceptorContext,
        next: @escaping @Sendable (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        do {
            let response = try await next(request)
            log.withLock { $0.append("status \(response.status)") }
            return response
        } catch {
            log.withLock { $0.append("\(error)") }
            throw error
        }
    }
}
