import CourierPrimitives
import Foundation
import TestSupport
import Testing

@testable import MockServer

/// A mapping's `eventStream`: the bytes on the wire, and the mistakes refused loudly.
struct EventStreamStubTests {
    @Test func eventsAreWrittenAsEventStreamFields() async throws {
        try await withMockServer { server in
            try server.addStubs(
                json: Data(
                    #"""
                    {"request": {"urlPath": "/e"}, "response": {"eventStream": {"events": [
                      {"comment": "hi", "retry": 10, "event": "tick", "id": "1", "data": "a\nb"}, {"data": "c"}]}}}
                    """#.utf8))
            let response = try perform(server, "/e")
            #expect(response.header("Content-Type") == "text/event-stream")
            #expect(response.header("Cache-Control") == "no-cache")
            #expect(response.text == ": hi\nretry: 10\nevent: tick\nid: 1\ndata: a\ndata: b\n\ndata: c\n\n")
        }
    }

    @Test(arguments: [
        (#"{"events": [], "speed": 1}"#, "eventStream.speed: unknown key"),
        (#"{"events": [{"name": "x"}]}"#, "events[0].name: unknown key"),
        (#"{"events": [{"data": "x"}], "dropAfter": 2}"#, "dropAfter must be a count"),
        (#"{"events": [{"retry": "soon", "data": "x"}]}"#, "retry must be milliseconds"),
        (#"{"events": [{"id": "a\nb", "data": "x"}]}"#, "id must be one line"),
        (#"{"events": "x"}"#, "events must be an array"),
    ])
    func mistakesAreRefused(stream: String, message: String) throws {
        let alone = try JSONValue.parse(Data(("{\"eventStream\": " + stream + "}").utf8))
        do {
            _ = try ResponseDefinition.parse(alone, at: "response")
            Issue.record("accepted \(stream)")
        } catch let error as ValuePattern.InvalidMapping {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    /// A valid stream with a `body` next to it is refused for that reason alone.
    @Test func aBodyBesideAnEventStreamIsRefused() throws {
        let stream = #"{"events": [{"data": "x"}]}"#
        let alone = try JSONValue.parse(Data(("{\"eventStream\": " + stream + "}").utf8))
        _ = try ResponseDefinition.parse(alone, at: "response")
        let withBody = try JSONValue.parse(Data(("{\"body\": \"x\", \"eventStream\": " + stream + "}").utf8))
        let error = #expect(throws: ValuePattern.InvalidMapping.self) {
            try ResponseDefinition.parse(withBody, at: "response")
        }
        #expect(
            error?.description.contains("eventStream is the body: drop body") == true,
            "\(String(describing: error))")
    }
}
