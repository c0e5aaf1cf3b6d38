// Must compile: `import CourierTesting` alone gives a test what it needs to drive a manager over a
// stub: the manager, its responses and errors (Courier, re-exported) and the stubs.
import CourierTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct Greeting: Decodable, Sendable { var text: String }

func greetingFromAStub() async throws(CourierError) -> (Greeting, HTTPMethod, Data, Int?) {
    let transport = StubTransport()
    transport.on(.get, "/greeting", .json(#"{"text": "hi"}"#))
    let manager = NetworkManager(transport: transport, baseURL: URL(string: "http://stub.test"))
    let response: Response<Greeting> = try await manager.send(
        URLRequest(url: URL(string: "http://stub.test/greeting")!), as: Greeting.self)
    let failure = CourierError(.unacceptableStatus, "example", status: 404)
    return (response.value, response.request.method, response.body.data, failure.status)
}
