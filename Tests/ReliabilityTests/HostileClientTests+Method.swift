import Courier
import CourierContract
import Foundation
import MockServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An endpoint whose method is whatever the test says.
struct MethodEndpoint: APIConfigurable {
    var method: HTTPMethod
    var path: EndpointPath { "/items" }
}

/// A method holding CR, LF, a space or NUL would put a second request on the wire. Every entry
/// point refuses it before anything is sent: an endpoint and a hand-built `URLRequest` through
/// `NetworkManager`, which checks the method above the transport, and a bare `Transport.send`, which
/// each transport guards itself.
extension HostileClientTests {
    static let hostileMethods = [
        "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\nGET", "POST\r\nX-Injected: 1", "GET\n", "PU T", "GET\u{0}",
        "",
    ]

    @Test(arguments: hostileMethods, TransportUnderTest.allCases)
    func aMethodThatIsNotATokenNeverReachesTheSocket(_ method: String, over transport: TransportUnderTest)
        async throws
    {
        let served = Counter()
        let handler = ClosureHandler { _ in
            served.increment()
            return .text("ok", status: 200)
        }
        let errors = try await withMockServer(handlers: [handler]) { server in
            try await transport.with { client in
                let manager = NetworkManager(transport: client, baseURL: server.baseURL)
                var request = URLRequest(url: server.baseURL.appendingPathComponent("items"))
                request.httpMethod = method
                let handBuilt = request
                return try await withDeadline(seconds: 15) { () -> [CourierError?] in
                    var errors: [CourierError?] = []
                    for attempt in 0..<3 {
                        do {
                            switch attempt {
                            case 0:
                                _ = try await manager.sendRaw(
                                    MethodEndpoint(method: HTTPMethod(rawValue: method)))
                            case 1: _ = try await manager.sendRaw(handBuilt)
                            default:
                                _ = try await client.send(
                                    TransportRequest(urlRequest: handBuilt, body: .data(Data("x".utf8))))
                            }
                            errors.append(nil)
                        } catch let error as CourierError {
                            errors.append(error)
                        }
                    }
                    return errors
                }
            }
        }
        for (entry, error) in zip(["endpoint", "URLRequest", "TransportRequest"], errors) {
            #expect(
                error?.code == .invalidParameters,
                "\(entry) \(method.debugDescription): \(String(describing: error))")
        }
        #expect(served.count == 0, "the server saw \(served.count) requests")
    }
}
