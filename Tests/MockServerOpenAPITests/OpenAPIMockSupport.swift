import Courier
import CourierCurl
import CourierOpenAPI
import CourierTesting
import Foundation
import MockServerOpenAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One answer of the mock.
struct Answer {
    var status: Int
    var headers: [String: String]
    var body: Data
    var json: JSONValue? { try? JSONValue.parse(body) }
    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// Sends requests to a mock server over loopback, through libcurl (which leaves a 401 to the caller).
struct Client {
    let baseURL: URL
    let transport: CurlTransport

    func send(
        _ method: String, _ target: String, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Answer {
        guard let url = URL(string: baseURL.absoluteString + target) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let response = try await transport.send(
            TransportRequest(urlRequest: request, body: body.map { .data($0) } ?? .empty))
        var fields: [String: String] = [:]
        for field in response.headers { fields[field.name] = field.value }
        return Answer(status: response.status, headers: fields, body: response.body.data)
    }

    func json(_ method: String, _ target: String, _ text: String, headers: [String: String] = [:])
        async throws
        -> Answer
    {
        try await send(
            method, target, headers: headers.merging(["Content-Type": "application/json"]) { $1 },
            body: Data(text.utf8))
    }
}

enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/OpenAPI")

    static func document(_ yaml: String) throws -> OpenAPIDocument {
        try OpenAPIDocument.parse(Data(yaml.utf8))
    }

    /// Runs `body` against a mock serving `handler`.
    static func serve<T: Sendable>(
        _ handler: OpenAPIHandler, _ body: (Client, MockServer) async throws -> T
    ) async throws -> T {
        var configuration = MockServerConfiguration()
        configuration.port = 0
        let transport = CurlTransport()
        do {
            let result = try await withMockServer(configuration: configuration, handlers: [handler]) {
                server in
                try await body(Client(baseURL: server.baseURL, transport: transport), server)
            }
            await transport.shutdown()
            return result
        } catch {
            await transport.shutdown()
            throw error
        }
    }
}
