import Courier
import CourierContract
import CourierTesting
import Foundation
import MockServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The classic `APIConfigurable` form (`type`, a `String` path, `[String: Any]` parameters,
/// `[String: String]?` headers) sends exactly what it declares, over both transports.
struct ClassicEnumTests {
    /// Sends every request to `server` instead of its own host, changing nothing else.
    struct ToLoopback: Interceptor {
        let server: URL
        func intercept(
            _ request: TransportRequest, context: InterceptorContext,
            next: @escaping @Sendable (TransportRequest) async throws -> TransportResponse
        ) async throws -> TransportResponse {
            var components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
            components.scheme = server.scheme
            components.host = server.host
            components.port = server.port
            var moved = request
            moved.url = try #require(components.url)
            return try await next(moved)
        }
    }

    static func json(_ data: Data?) throws -> NSDictionary {
        let data = try #require(data)
        return try #require(JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    @Test func theLastLineGivesTheURLRequestTheEnumDeclares() throws {
        let request = OnboardingEndPoint.login(email: "ayush", password: "123456").asURLRequest()
        let built = try #require(request)
        #expect(built.httpMethod == "POST")
        #expect(built.url?.absoluteString == "https://www.myserver.com/login")
        #expect(built.value(forHTTPHeaderField: "Authorization") == "<token>")
        #expect(built.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/json") == true)
        #expect(try Self.json(built.httpBody) == ["Email": "ayush", "Password": "123456"])
    }

    @Test func getParametersGoInTheQuery() throws {
        let request = try SeedSearchEndPoint.search(query: "swift & co", page: 2, tags: ["a", "b"])
            .makeRequest(baseURL: URL(string: "http://127.0.0.1:9"))
        #expect(request.method == .get)
        #expect(request.url.path == "/search")
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.first { $0.name == "q" }?.value == "swift & co")
        #expect(items.first { $0.name == "page" }?.value == "2")
        #expect(items.filter { $0.name == "tags[]" }.map(\.value) == ["a", "b"])
        #expect(request.body.length == 0)
    }

    @Test func aValueThatIsNoJSONFailsTheRequestNamingItsKey() {
        enum Odd: APIConfigurable {
            case one
            var type: RequestType { .POST }
            var path: String { "/odd" }
            var parameters: [String: Any] { ["when": DispatchQueue.main] }
        }
        #expect {
            try Odd.one.makeRequest(baseURL: URL(string: "http://127.0.0.1:9"))
        } throws: { error in
            (error as? CourierError)?.code == .invalidParameters && "\(error)".contains("when")
        }
        #expect(Odd.one.asURLRequest() == nil)
    }

    @Test(arguments: TransportUnderTest.all)
    func theEnumSendsItsMethodHeadersAndBody(transport: TransportUnderTest) async throws {
        try await withMockServer { server in
            let manager = NetworkManager(
                transport: try await transport.make(), interceptors: [ToLoopback(server: server.baseURL)])
            _ = try? await manager.sendRaw(
                OnboardingEndPoint.signup(name: nil, email: "a@b.test", password: "pw"))
            _ = try? await manager.sendRaw(OnboardingEndPoint.login(email: "ayush", password: "123456"))
            let received = server.journaledRequests
            try #require(received.count == 2)
            #expect(received.map(\.method) == ["POST", "POST"])
            #expect(received.map(\.path) == ["/signup", "/login"])
            #expect(received.map { $0.headers["Authorization"] } == ["<token>", "<token>"])
            #expect(try Self.json(received[0].body) == ["Name": "", "Email": "a@b.test", "Password": "pw"])
            #expect(try Self.json(received[1].body) == ["Email": "ayush", "Password": "123456"])
            await manager.transport.shutdown()
        }
    }
}
