import Courier
import Foundation

/// One event of a `text/event-stream` response.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type: the `event` field, `"message"` when there was none.
    public var event: String
    /// The `data` fields of the event, joined by line feeds.
    public var data: String
    /// The last event ID when the event was dispatched (the latest `id` field of the stream,
    /// which carries over to later events and reconnections); empty when none was set.
    public var id: String
    /// The reconnection delay a `retry` field in this event's block asked for, if any.
    public var retry: Duration?

    /// Creates an event.
    public init(event: String = "message", data: String, id: String = "", retry: Duration? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}

/// Turns the bytes of an event stream into events, by the parsing rules of the HTML
/// standard's `EventSource`: lines end with CRLF, LF or CR (also across chunks); a leading
/// byte-order mark is dropped; `:` starts a comment; a field without `:` has an empty value;
/// one space after `:` is dropped; `data` lines join with LF; an `id` containing NUL is
/// ignored; `retry` counts only when all ASCII digits; unknown fields are ignored; a blank
/// line dispatches the event unless it has no data; an unfinished event at the end is
/// dropped.
package struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var afterCR = false
    private var atStart = true
    private var data = ""
    private var hasData = false
    private var eventType = ""
    private var blockRetry: Duration?
    /// The `id` field of the event being read: it becomes `lastEventID` when the event is
    /// dispatched, not before, so an event cut off by a lost connection is asked for again.
    private var pendingID: String?
    /// The last event ID, carried over from event to event.
    package var lastEventID = ""
    /// The latest reconnection delay a `retry` field set.
    package private(set) var retry: Duration?

    /// The bytes held for the line and the event not finished yet.
    package var unfinishedBytes: Int { line.count + data.utf8.count + eventType.utf8.count }

    package init(lastEventID: String = "") {
        self.lastEventID = lastEventID
    }

    /// Parses a chunk; returns the events it completed.
    package mutating func feed(_ chunk: some Collection<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in chunk {
            if atStart {
                // A byte-order mark may only open the stream.
                line.append(byte)
                let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
                if line.count <= 3, line.elementsEqual(bom.prefix(line.count)) {
                    if line.count == 3 {
                        line = []
                        atStart = false
                    }
                    continue
                }
                atStart = false
                let pending = line
                line = []
                for byte in pending { consume(byte, into: &events) }
                continue
            }
            consume(byte, into: &events)
        }
        return events
    }

    /// A new connection starts: a half-read line or event of the old one is dropped, and a
    /// byte-order mark may open the new one.
    package mutating func reset() {
        line = []
        afterCR = false
        atStart = true
        data = ""
        hasData = false
        eventType = ""
        blockRetry = nil
        pendingID = nil
    }

    private mutating func consume(_ byte: UInt8, into events: inout [ServerSentEvent]) {
        switch byte {
        case 0x0A:
            if afterCR {
                afterCR = false  // the LF of a CRLF
                return
            }
            endLine(into: &events)
        case 0x0D:
            afterCR = true
            endLine(into: &events)
        default:
            afterCR = false
            line.append(byte)
        }
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            dispatch(into: &events)
            return
        }
        if line.first == UInt8(ascii: ":") { return }
        let field: String
        let value: String
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: line[..<colon], as: UTF8.self)
            var start = colon + 1
            if start < line.count, line[start] == UInt8(ascii: " ") { start += 1 }
            value = String(decoding: line[start...], as: UTF8.self)
        } else {
            field = String(decoding: line, as: UTF8.self)
            value = ""
        }
        switch field {
        case "event":
            eventType = value
        case "data":
            if hasData { data += "\n" }
            data += value
            hasData = true
        case "id":
            if !value.utf8.contains(0) { pendingID = value }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let milliseconds = Int64(value)
            {
                retry = .milliseconds(milliseconds)
                blockRetry = retry
            }
        default:
            break  // unknown fields are ignored
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        defer {
            data = ""
            hasData = false
            eventType = ""
            blockRetry = nil
        }
        // Also for a block without data, as the standard's dispatch sets the ID first.
        if let pendingID {
            lastEventID = pendingID
            self.pendingID = nil
        }
        guard hasData else { return }
        events.append(
            ServerSentEvent(
                event: eventType.isEmpty ? "message" : eventType, data: data, id: lastEventID,
                retry: blockRetry))
    }
}
