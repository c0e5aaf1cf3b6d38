import Courier
import CourierContract
import CourierInterceptors
import Endpoints
import Foundation
import MockServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An endpoint built from hostile pieces.
enum HostileEndpoint: APIConfigurable {
    case header(name: String, value: String)
    case rawPath(String)
    case segment(String)
    case component(String)

    var method: HTTPMethod { .get }

    var path: EndpointPath {
        switch self {
        case .header: "/items"
        case .rawPath(let value): EndpointPath("/items/" + value)
        case .segment(let value): "/items/\(value)"
        case .component(let value):
            (try? PathComponent(value)).map { "/items/\($0)" } ?? "/items/\(value)"
        }
    }

    var headers: HTTPHeaders {
        switch self {
        case .header(let name, let value): HTTPHeaders([(name, value)])
        default: HTTPHeaders()
        }
    }
}

/// A hostile value and where it goes, for parameterised tests.
struct HostileCase: Sendable, CustomTestStringConvertible {
    var name: String
    /// An `any URLRequestConvertible` or an `any EndpointDescribing`.
    var endpoint: any Sendable
    var code: CourierError.Code
    var testDescription: String { name }
}

/// Hostile input on the client side: refused before anything is sent, or turned into a precise error.
@Suite(.timeLimit(.minutes(1)))
struct HostileClientTests {
    static let injections = [
        "a\r\nX-Injected: 1", "a\nb", "a\rb", "a\u{0}b", "\r\n\r\nGET /smuggled HTTP/1.1",
    ]

    static let headerCases: [HostileCase] =
        injections.map {
            .init(
                name: "value \($0.debugDescription)",
                endpoint: HostileEndpoint.header(name: "X-Test", value: $0), code: .invalidHeader)
        }
        + ["X-Bad\r\nX-Injected", "X Bad", "X:Bad", "", "X-Nul\u{0}", "Ünïcode"].map {
            .init(
                name: "name \($0.debugDescription)", endpoint: HostileEndpoint.header(name: $0, value: "v"),
                code: .invalidHeader)
        }

    /// A raw CR, LF or NUL in an endpoint's path: `URL.joining(path:base:)` refuses it.
    static let rawPathCases: [HostileCase] = injections.map {
        .init(
            name: "raw path \($0.debugDescription)", endpoint: HostileEndpoint.rawPath($0), code: .invalidURL)
    }

    /// The same characters given as a path *parameter*, through Courier's encoders and the social endpoints.
    static let parameterCases: [HostileCase] = injections.flatMap { value -> [HostileCase] in
        [
            .init(
                name: "segment \(value.debugDescription)", endpoint: HostileEndpoint.segment(value),
                code: .invalidURL),
            .init(
                name: "PathComponent \(value.debugDescription)", endpoint: HostileEndpoint.component(value),
                code: .invalidURL),
            .init(
                name: "TweetsEndPoint.byUser \(value.debugDescription)",
                endpoint: TweetsEndPoint.byUser(userId: value),
                code: .invalidURL),
            .init(
                name: "PostsEndPoint.post \(value.debugDescription)", endpoint: PostsEndPoint.post(id: value),
                code: .invalidURL),
        ]
    }

    /// Sends an untyped request or a declared endpoint, undecoded.
    static func sendRaw(_ endpoint: any Sendable, _ manager: NetworkManager) async throws -> Response<Data> {
        if let declared = endpoint as? any EndpointDescribing { return try await manager.sendRaw(declared) }
        let request = try #require(endpoint as? any URLRequestConvertible)
        return try await manager.sendRaw(request)
    }

    /// Sends `endpoint` through a manager over `transport` to a server that counts requests; returns the
    /// error (nil when the call succeeded) and how many requests the server saw.
    static func send(
        _ endpoint: any Sendable, over transport: TransportUnderTest, baseURL: URL? = nil,
        options: TransferOptions = TransferOptions(idleTimeout: .seconds(5))
    ) async throws -> (CourierError?, Int) {
        let served = Counter()
        let handler = ClosureHandler { _ in
            served.increment()
            return .text("[]", status: 200)
        }
        let error = try await withMockServer(handlers: [handler]) { server in
            try await transport.with { client in
                let manager = NetworkManager(
                    transport: client, baseURL: baseURL ?? server.baseURL, transferOptions: options,
                    interceptors: [RetryPolicy(maxAttempts: 2, baseDelay: .seconds(0.01))])
                return try await withDeadline(seconds: 15) { () -> CourierError? in
                    do {
                        _ = try await Self.sendRaw(endpoint, manager)
                        return nil
                    } catch let error as CourierError {
                        return error
                    }
                }
            }
        }
        return (error, served.count)
    }

    @Test(arguments: headerCases + rawPathCases, TransportUnderTest.allCases)
    func injectionIsRefusedBeforeSending(_ hostile: HostileCase, over transport: TransportUnderTest)
        async throws
    {
        let (error, served) = try await Self.send(hostile.endpoint, over: transport)
        #expect(
            error?.code == hostile.code, "\(hostile.name): \(error.map(String.init(describing:)) ?? "sent")")
        #expect(error?.category == .invalidRequest)
        #expect(served == 0, "\(hostile.name): the server saw \(served) requests")
    }

    /// Path parameters with CR, LF or NUL: refused with an invalid-request error before anything is sent
    /// (issue 7). Whatever happens, nothing may be injected into a request the server sees.
    @Test(arguments: parameterCases, TransportUnderTest.allCases)
    func pathParameterInjectionIsRefusedBeforeSending(
        _ hostile: HostileCase, over transport: TransportUnderTest
    )
        async throws
    {
        let seen = Collector<(path: String, injected: Bool)>()
        let handler = ClosureHandler { request in
            seen.append((request.path, request.headers["X-Injected"] != nil || request.path.contains("\r")))
            return .text("[]", status: 200)
        }
        let error = try await withMockServer(handlers: [handler]) { server in
            try await transport.with { client in
                let manager = NetworkManager(transport: client, baseURL: server.baseURL)
                return try await withDeadline(seconds: 15) { () -> CourierError? in
                    do {
                        _ = try await Self.sendRaw(hostile.endpoint, manager)
                        return nil
                    } catch let error as CourierError {
                        return error
                    }
                }
            }
        }
        #expect(seen.all.count <= 1)
        for request in seen.all {
            #expect(!request.injected, "\(hostile.name): injected into \(request.path)")
            #expect(
                request.path.contains("%0D") || request.path.contains("%0A") || request.path.contains("%00"))
        }
        #expect(error?.category == .invalidRequest, "\(hostile.name) was sent as \(seen.all.map(\.path))")
        #expect(seen.all.isEmpty)
    }

    /// A `URLRequest` built by hand skips the endpoint checks. Foundation's `URLRequest.setValue` drops a value
    /// with CR, LF or NUL (silently), so nothing can be injected this way either.
    @Test(arguments: injections, TransportUnderTest.allCases)
    func injectionInAHandBuiltRequestNeverReachesTheWire(_ value: String, over transport: TransportUnderTest)
        async throws
    {
        let seen = Collector<(value: String?, injected: Bool)>()
        let handler = ClosureHandler { request in
            seen.append((request.headers["X-Test"], request.headers["X-Injected"] != nil))
            return .text("ok", status: 200)
        }
        let error = try await withMockServer(handlers: [handler]) { server in
            try await transport.with { client in
                var request = URLRequest(url: server.baseURL.appendingPathComponent("items"))
                request.setValue(value, forHTTPHeaderField: "X-Test")
                let manager = NetworkManager(transport: client)
                let sent = request
                return try await withDeadline(seconds: 15) { () -> CourierError? in
                    do {
                        _ = try await manager.sendRaw(sent)
                        return nil
                    } catch let error as CourierError {
                        return error
                    }
                }
            }
        }
        if let error {
            #expect(error.code == .invalidHeader)
            #expect(seen.all.isEmpty)
        } else {
            #expect(seen.all.count == 1)
            for request in seen.all {
                #expect(request.value == nil, "the header arrived as \(request.value.debugDescription)")
                #expect(!request.injected)
            }
        }
    }

    static let invalidURLs: [HostileCase] = [
        .init(
            name: "ftp scheme", endpoint: URLRequest(url: URL(string: "ftp://127.0.0.1/x")!),
            code: .invalidURL),
        .init(
            name: "file scheme", endpoint: URLRequest(url: URL(fileURLWithPath: "/etc/passwd")),
            code: .invalidURL),
        .init(name: "no host", endpoint: URLRequest(url: URL(string: "http:///x")!), code: .invalidURL),
        .init(name: "space in path", endpoint: HostileEndpoint.rawPath("a b"), code: .invalidURL),
        .init(name: "dot-dot segment", endpoint: HostileEndpoint.rawPath("../admin"), code: .invalidURL),
        .init(
            name: "encoded dot-dot segment", endpoint: HostileEndpoint.rawPath("%2E%2E/admin"),
            code: .invalidURL),
        .init(name: "slash in segment", endpoint: HostileEndpoint.segment("a/b"), code: .invalidURL),
    ]

    @Test(arguments: invalidURLs, TransportUnderTest.allCases)
    func invalidURLIsRefused(_ hostile: HostileCase, over transport: TransportUnderTest) async throws {
        let (error, served) = try await Self.send(hostile.endpoint, over: transport)
        #expect(
            error?.code == hostile.code, "\(hostile.name): \(error.map(String.init(describing:)) ?? "sent")")
        #expect(served == 0)
    }

    @Test(arguments: TransportUnderTest.allCases)
    func relativePathWithoutBaseURLIsRefused(_ transport: TransportUnderTest) async throws {
        try await transport.with { client in
            let manager = NetworkManager(transport: client)
            let error = await #expect(throws: CourierError.self) {
                try await manager.sendRaw(HostileEndpoint.rawPath("x"))
            }
            #expect(error?.code == .invalidURL)
        }
    }
}
