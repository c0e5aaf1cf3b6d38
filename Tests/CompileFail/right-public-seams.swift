// Must compile: what a user needs to test and compose is public: a Response built by hand, an
// interceptor run alone with its context, and a manager made from another one's settings.
import Courier
import Foundation

struct Note: Decodable, Sendable { var id: String }

func seams(manager: NetworkManager, interceptor: any Interceptor) async throws {
    let request = TransportRequest(url: URL(string: "http://127.0.0.1:9/notes/n1")!)
    let response = Response(
        value: Note(id: "n1"), status: 200, headers: ["Content-Type": "application/json"],
        body: .data(Data(#"{"id":"n1"}"#.utf8)), request: request)
    _ = response.map(\.id)

    let context = InterceptorContext(originalRequest: request, baseURL: URL(string: "http://127.0.0.1:9"))
    _ = try await interceptor.intercept(request, context: context) { outgoing in
        TransportResponse(status: 204, headers: HTTPHeaders(), body: .data(Data()), url: outgoing.url)
    }

    var settings = manager.settings
    settings.defaultHeaders.add(name: "X-Trace", value: "on")
    settings.cookieJar = nil
    _ = NetworkManager(transport: manager.transport, settings: settings)
}
