import Courier
import CourierContract
import CourierContractModel
import CourierCurl
import CourierOpenAPI
import CourierPrimitives
import Foundation
import MockServer
import MockServerContract
import MockServerOpenAPI
import Testing

/// A request's JSON body is parsed once, however many gates, checks, answers and stub patterns read
/// it: a declaration's handler and a document's both gate it, two stubs' JSON patterns weigh it.
@Test func aJSONBodyIsParsedOncePerRequest() async throws {
    let parses = Locked<[Int]>([])
    var configuration = MockServerConfiguration()
    configuration.exchangeObserver = { request, _ in parses.withLock { $0.append(request.bodyJSONParses) } }
    let document = try OpenAPIDocument.parse(
        try OpenAPIWriter.data(title: "notes", operations: NotesAPI.operations),
        url: URL(fileURLWithPath: "notes.json"))
    let handlers: [any HTTPHandler] = [ContractHandler(NotesAPI.self), OpenAPIHandler(document: document)]
    try await withMockServer(configuration: configuration, handlers: handlers) { server in
        _ = try server.addStubs(
            json: Data(
                #"""
                {"mappings": [
                  {"request": {"method": "POST", "url": "/notes", "bodyPatterns": [{"equalToJson": {"text": "other"}}]},
                   "response": {"status": 418}},
                  {"request": {"method": "POST", "url": "/notes",
                               "bodyPatterns": [{"matchesJsonPath": "$.pinned"}, {"equalToJson": {"text": "x"}}]},
                   "response": {"status": 409}}
                ]}
                """#.utf8))
        let transport = CurlTransport()
        var request = TransportRequest(method: .post, url: server.baseURL.appendingPathComponent("notes"))
        request.headers.add(name: "Authorization", value: "Bearer t")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .data(Data(#"{"text": "Buy milk"}"#.utf8))
        let response = try await transport.send(request)
        await transport.shutdown()
        #expect(response.status == 201, "no stub matches; the handler answers")
    }
    #expect(parses.withLock { $0 } == [1])
}
