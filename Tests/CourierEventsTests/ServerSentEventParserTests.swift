import Courier
import CourierEvents
import Foundation
import Testing

/// The `EventSource` parsing rules, fed whole and one byte at a time (so every line end and
/// the byte-order mark also arrive split across chunks).
@Suite struct ServerSentEventParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var input: [UInt8]
        var expected: [ServerSentEvent]
        var testDescription: String { name }

        init(_ name: String, _ input: String, _ expected: [ServerSentEvent]) {
            self.name = name
            self.input = Array(input.utf8)
            self.expected = expected
        }

        init(_ name: String, bytes: [UInt8], _ expected: [ServerSentEvent]) {
            self.name = name
            self.input = bytes
            self.expected = expected
        }
    }

    static let cases: [Case] = [
        Case("one message", "data: hello\n\n", [ServerSentEvent(data: "hello")]),
        Case(
            "multi-line data joins with LF", "data: first\ndata:second\ndata:  third\n\n",
            [ServerSentEvent(data: "first\nsecond\n third")]),
        Case(
            "event type and id", "event: tick\nid: 7\ndata: x\n\n",
            [ServerSentEvent(event: "tick", data: "x", id: "7")]),
        Case(
            "id carries over; event type does not", "event: a\nid: 1\ndata: one\n\ndata: two\n\n",
            [ServerSentEvent(event: "a", data: "one", id: "1"), ServerSentEvent(data: "two", id: "1")]),
        Case(
            "CR, LF and CRLF line ends", "data: a\r\rdata: b\r\n\r\ndata: c\n\n",
            [ServerSentEvent(data: "a"), ServerSentEvent(data: "b"), ServerSentEvent(data: "c")]),
        Case(
            "comments are ignored", ": keep-alive\ndata: x\n: more\n\n", [ServerSentEvent(data: "x")]),
        Case(
            "no data: nothing dispatched", "event: a\nid: 3\n\ndata: b\n\n",
            [ServerSentEvent(data: "b", id: "3")]),
        Case("empty data line dispatches an empty event", "data\n\n", [ServerSentEvent(data: "")]),
        Case(
            "retry in milliseconds", "retry: 250\ndata: x\n\n",
            [ServerSentEvent(data: "x", retry: .milliseconds(250))]),
        Case("retry that is not digits is ignored", "retry: 2s\ndata: x\n\n", [ServerSentEvent(data: "x")]),
        Case("unknown fields are ignored", "foo: bar\ndata: x\n\n", [ServerSentEvent(data: "x")]),
        Case(
            "an unfinished event at the end is dropped", "data: a\n\ndata: b\n", [ServerSentEvent(data: "a")]),
        Case(
            "a byte-order mark opens the stream",
            bytes: [0xEF, 0xBB, 0xBF] + Array("data: x\n\n".utf8), [ServerSentEvent(data: "x")]),
        Case(
            "only one space after the colon is dropped", "data:no space\n\n",
            [ServerSentEvent(data: "no space")]),
        Case(
            "an id with NUL is ignored", "id: 1\ndata: a\n\nid: 2\u{0}x\ndata: b\n\n",
            [ServerSentEvent(data: "a", id: "1"), ServerSentEvent(data: "b", id: "1")]),
        Case(
            "an empty id resets it", "id: 1\ndata: a\n\nid\ndata: b\n\n",
            [ServerSentEvent(data: "a", id: "1"), ServerSentEvent(data: "b", id: "")]),
        Case("UTF-8 data", "data: héllo ✓\n\n", [ServerSentEvent(data: "héllo ✓")]),
    ]

    @Test(arguments: cases)
    func parsesWhole(_ testCase: Case) {
        var parser = ServerSentEventParser()
        #expect(parser.feed(testCase.input) == testCase.expected)
    }

    @Test(arguments: cases)
    func parsesByteByByte(_ testCase: Case) {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for byte in testCase.input { events += parser.feed([byte]) }
        #expect(events == testCase.expected)
    }

    @Test func aCRAtTheEndOfAChunkAndAnLFAtTheStartOfTheNextAreOneLineEnd() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("data: a\r".utf8)).isEmpty)
        #expect(parser.feed(Array("\ndata: b\r\n\r\n".utf8)) == [ServerSentEvent(data: "a\nb")])
    }

    @Test func theRetryAndLastEventIDOutliveTheEvent() {
        var parser = ServerSentEventParser()
        _ = parser.feed(Array("retry: 1500\nid: abc\ndata: x\n\n".utf8))
        #expect(parser.retry == .milliseconds(1500))
        #expect(parser.lastEventID == "abc")
        parser.reset()
        #expect(parser.feed(Array("data: y\n\n".utf8)) == [ServerSentEvent(data: "y", id: "abc")])
    }

    /// The id of an event the connection lost before its blank line is not the last event ID:
    /// the reconnection asks for that event again.
    @Test func anEventCutOffByALostConnectionDoesNotMoveTheLastEventID() {
        var parser = ServerSentEventParser()
        _ = parser.feed(Array("id: 6\ndata: six\n\nid: 7\ndata: sev".utf8))
        #expect(parser.lastEventID == "6")
        parser.reset()
        #expect(parser.lastEventID == "6")
        #expect(
            parser.feed(Array("id: 7\ndata: seven\n\n".utf8)) == [ServerSentEvent(data: "seven", id: "7")])
        // A block with an id and no data still moves it, as the standard's dispatch does.
        _ = parser.feed(Array("id: 8\n\n".utf8))
        #expect(parser.lastEventID == "8")
    }
}
