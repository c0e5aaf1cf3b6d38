import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Code that calls `URLSession.shared` itself, as a third-party SDK does, answered in process.
@Suite struct SharedSessionTests {
    /// The code under test: it knows nothing of Courier or of the mock.
    static func fetchGreeting() async throws -> (status: Int, text: String) {
        let url = try #require(URL(string: "https://api.greetings.example/hello?name=ada"))
        let (data, response) = try await URLSession.shared.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func codeCallingTheSharedSessionIsStubbed() async throws {
        try URLProtocolMock.interceptSharedSession()
        try await withURLProtocolMock { mock in
            try mock.serve(host: "api.greetings.example")
            try mock.addStubs(
                json: Data(
                    #"{"request": {"method": "GET", "urlPath": "/hello", "queryParameters": {"name": {"equalTo": "ada"}}}, "response": {"status": 200, "body": "hello, ada"}}"#
                        .utf8))
            let (status, text) = try await Self.fetchGreeting()
            #expect(status == 200)
            #expect(text == "hello, ada")
            try mock.verify(#"{"method": "GET", "urlPath": "/hello"}"#)
        }
    }
}
