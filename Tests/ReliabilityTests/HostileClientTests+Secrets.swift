import Courier
import CourierContract
import CourierCurl
import CourierInterceptors
import Endpoints
import Foundation
import MockServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Credentials must not follow a redirect to another origin, nor appear in logs or cURL renderings.
extension HostileClientTests {
    /// Where the redirect goes.
    enum RedirectTarget: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// `127.0.0.1` → `localhost`, same port: another host.
        case otherHost
        /// `127.0.0.1:A` → `127.0.0.1:B`: another origin.
        case otherPort
        /// Same scheme, host and port: credentials are kept.
        case sameOrigin
        var testDescription: String { rawValue }
    }

    @Test(arguments: RedirectTarget.allCases, TransportUnderTest.allCases)
    func authorizationIsNotSentToAnotherOrigin(_ target: RedirectTarget, over transport: TransportUnderTest)
        async throws
    {
        let landed = Collector<(authorization: String?, cookie: String?, apiKey: String?)>()
        let landing = ClosureHandler { request in
            guard request.path == "/landing" else { return nil }
            landed.append(
                (request.headers["Authorization"], request.headers["Cookie"], request.headers["X-Api-Key"]))
            return .text("landed", status: 200)
        }
        let status = try await withMockServer(handlers: [landing]) { other in
            let redirect = ClosureHandler { request in
                guard request.path == "/start" else { return nil }
                let port = request.headers["Host"]?.split(separator: ":").last.map(String.init) ?? ""
                let location =
                    switch target {
                    case .otherHost: "http://localhost:\(port)/landing"
                    case .otherPort: "http://127.0.0.1:\(other.port)/landing"
                    case .sameOrigin: "/landing"
                    }
                return ServerResponse(status: 302, headers: ["Location": location])
            }
            return try await withMockServer(handlers: [redirect, landing]) { server in
                try await transport.with { client in
                    var request = URLRequest(url: server.baseURL.appendingPathComponent("start"))
                    request.setValue("Bearer SECRET-TOKEN", forHTTPHeaderField: "Authorization")
                    request.setValue("session=SECRET-COOKIE", forHTTPHeaderField: "Cookie")
                    request.setValue("SECRET-API-KEY", forHTTPHeaderField: "X-Api-Key")
                    let manager = NetworkManager(
                        transport: client, transferOptions: TransferOptions(idleTimeout: .seconds(5)))
                    let sent = request
                    return try await withDeadline(seconds: 15) { try await manager.sendRaw(sent).status }
                }
            }
        }
        #expect(status == 200)
        let seen = try #require(landed.all.first)
        if target == .sameOrigin {
            #expect(seen.authorization == "Bearer SECRET-TOKEN")
            #expect(seen.cookie == "session=SECRET-COOKIE")
            #expect(seen.apiKey == "SECRET-API-KEY")
        } else {
            #expect(seen.authorization == nil, "Authorization leaked to \(target)")
            #expect(seen.cookie == nil, "Cookie leaked to \(target)")
            #expect(seen.apiKey == nil, "X-Api-Key leaked to \(target)")
        }
    }

    static let secrets = ["hunter2-password", "SECRET-TOKEN-123", "REFRESH-456", "sig-789"]

    /// Every log line and cURL rendering of a session that signs up, calls with a token, fails to log in,
    /// and fails to decode a body that contains a token.
    @Test func secretsNeverAppearInLogsOrCURLRenderings() async throws {
        let lines = Collector<String>()
        let handler = ClosureHandler { request in
            switch request.path {
            case "/auth/login":
                return .json(Data(#"{"error":"unauthorized","message":"wrong password"}"#.utf8), status: 401)
            case "/items/session":
                // A 200 with a token in a shape the client does not expect: the decoding error carries the body.
                return .json(
                    Data(#"{"token":"SECRET-TOKEN-123","refreshToken":"REFRESH-456","expires":"soon"}"#.utf8))
            default:
                return .json(Data("[]".utf8))
            }
        }
        try await withMockServer(handlers: [handler]) { server in
            try await CurlTransport.with { transport in
                let monitor = LoggingEventMonitor(includeCURL: true) { lines.append($0) }
                let manager = NetworkManager(
                    transport: transport, baseURL: server.baseURL,
                    interceptors: [AuthInterceptor(provider: StaticToken(token: "SECRET-TOKEN-123"))],
                    eventMonitors: [monitor])
                _ = try? await manager.send(
                    OnboardingEndPoint.login(email: "a@example.com", password: "hunter2-password"))
                _ = try? await manager.send(
                    OnboardingEndPoint.refresh(refreshToken: "REFRESH-456"))
                _ = try? await manager.sendRaw(
                    URLRequest(
                        url: URL(string: "\(server.baseURL)/feed?access_token=SECRET-TOKEN-123&sig=sig-789")!)
                )
                let undecodable = await #expect(throws: CourierError.self) {
                    try await manager.send(HostileEndpoint.rawPath("session"), as: AuthSession.self)
                }
                #expect(undecodable?.code == .decodingFailed)
            }
        }
        #expect(lines.all.count >= 6)
        #expect(lines.all.contains { $0.hasPrefix("✗") && $0.contains("401") })
        #expect(
            lines.all.contains { $0.hasPrefix("✗") && $0.contains("/items/session") },
            "the failed decoding is logged: \(lines.all)")
        for line in lines.all {
            for secret in Self.secrets {
                #expect(!line.contains(secret), "a log line shows \(secret): \(line)")
            }
        }
        var renderings: [String] = []
        for endpoint: any EndpointDescribing in [
            OnboardingEndPoint.login(email: "a@example.com", password: "hunter2-password"),
            OnboardingEndPoint.signup(name: "A", email: "a@example.com", password: "hunter2-password"),
            OnboardingEndPoint.refresh(refreshToken: "REFRESH-456"),
        ] {
            renderings.append(CURLRendering.command(for: try endpoint.makeRequest(baseURL: nil)))
        }
        var form = TransportRequest(
            urlRequest: URLRequest(
                url: URL(string: "http://u:hunter2-password@127.0.0.1/x?token=SECRET-TOKEN-123")!))
        try FormBody(["password": .string("hunter2-password"), "user": .string("a")]).encode(into: &form)
        form.headers.replaceOrAdd(name: "Authorization", value: "Bearer SECRET-TOKEN-123")
        form.headers.replaceOrAdd(name: "X-Refresh-Token", value: "REFRESH-456")
        renderings.append(CURLRendering.command(for: form))
        for rendering in renderings {
            for secret in Self.secrets {
                #expect(!rendering.contains(secret), "a cURL rendering shows \(secret): \(rendering)")
            }
        }
    }
}

extension HostileClientTests {
    /// A 200 whose body holds a token but does not decode: the decoding error's description (logged by
    /// `LoggingEventMonitor` as the `.failed` event) must not show the token.
    @Test func tokensInAnUndecodableBodyAreNotLogged() async throws {
        let lines = Collector<String>()
        let handler = ClosureHandler { _ in
            .json(Data(#"{"token":"SECRET-TOKEN-123","refreshToken":"REFRESH-456","expires":"soon"}"#.utf8))
        }
        let error = try await withMockServer(handlers: [handler]) { server in
            try await CurlTransport.with { transport in
                let manager = NetworkManager(
                    transport: transport, baseURL: server.baseURL,
                    eventMonitors: [LoggingEventMonitor { lines.append($0) }])
                return await #expect(throws: CourierError.self) {
                    try await manager.send(HostileEndpoint.rawPath("session"), as: AuthSession.self)
                }
            }
        }
        #expect(error?.code == .decodingFailed)
        let failure = try #require(lines.all.first { $0.hasPrefix("✗") })
        for secret in ["SECRET-TOKEN-123", "REFRESH-456"] {
            #expect(!failure.contains(secret), "the log shows \(secret): \(failure)")
        }
    }
}

/// A token provider with a fixed token.
struct StaticToken: TokenProvider {
    var token: String
    func currentToken() async throws -> String? { token }
    func refreshToken() async throws -> String { token }
}
