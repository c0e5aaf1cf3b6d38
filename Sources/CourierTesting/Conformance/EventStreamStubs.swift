import Courier
import CourierEvents
import Foundation

/// Mock-server mappings that serve event streams, for `MockServer.addStubs(json:)`: the
/// conformance checks read them through a transport, and tests time them.
package enum EventStreamStubs {
    /// The events `ticks(at:delayMilliseconds:)` delivers, as `NetworkManager.events` yields them.
    package static let tickEvents = [
        ServerSentEvent(event: "tick", data: "one\ntwo", id: "1"),
        ServerSentEvent(data: "three", id: "2", retry: .milliseconds(50)),
    ]

    /// `GET url`: a comment, then event 1 (`tick`, two data lines), then event 2 (`retry: 50`),
    /// each `delayMilliseconds` after the one before; the reconnection after the body ends
    /// (with `Last-Event-ID: 2`) gets a 204, which ends the stream.
    package static func ticks(at url: String, delayMilliseconds: Int) -> Data {
        Data(
            """
            {"mappings": [
              {"request": {"method": "GET", "url": "\(url)"},
               "response": {"status": 200, "eventStream": {"delayMilliseconds": \(delayMilliseconds), "events": [
                 {"comment": "hello"},
                 {"id": "1", "event": "tick", "data": "one\\ntwo"},
                 {"id": "2", "data": "three", "retry": 50}]}}},
              {"priority": 1, "request": {"method": "GET", "url": "\(url)",
                 "headers": {"Last-Event-ID": {"equalTo": "2"}}},
               "response": {"status": 204}}]}
            """.utf8)
    }

    /// The data of the events `droppedFeed(at:delayMilliseconds:)` delivers, in order.
    package static let feedData = ["first", "second", "third"]

    /// The IDs a reconnection to `droppedFeed(at:delayMilliseconds:)` sends in `Last-Event-ID`.
    package static let feedResumedIDs = ["a2", "a3"]

    /// `GET url`: the first connection sends events a1 (`retry: 100`) and a2,
    /// `delayMilliseconds` apart, and drops before a3; the reconnection with `Last-Event-ID: a2`
    /// gets a3, and the one with `a3` a 204, which ends the stream.
    package static func droppedFeed(at url: String, delayMilliseconds: Int) -> Data {
        Data(
            """
            {"mappings": [
              {"request": {"method": "GET", "url": "\(url)", "headers": {"Last-Event-ID": {"absent": true}}},
               "response": {"status": 200, "eventStream": {"delayMilliseconds": \(delayMilliseconds), "dropAfter": 2,
                 "events": [
                   {"id": "a1", "data": "first", "retry": 100},
                   {"id": "a2", "data": "second"},
                   {"id": "a3", "data": "never sent"}]}}},
              {"request": {"method": "GET", "url": "\(url)", "headers": {"Last-Event-ID": {"equalTo": "a2"}}},
               "response": {"status": 200, "eventStream": {"events": [{"id": "a3", "data": "third"}]}}},
              {"request": {"method": "GET", "url": "\(url)", "headers": {"Last-Event-ID": {"equalTo": "a3"}}},
               "response": {"status": 204}}]}
            """.utf8)
    }
}
