import CourierPrimitives
import Foundation

/// A mapping's `eventStream`: server-sent events written one chunk each, with a delay between
/// them, and optionally a dropped connection after some of them.
///
/// ```json
/// "eventStream": {
///   "events": [{"id": "1", "event": "tick", "data": "line one\nline two", "retry": 100}, {"comment": "ping"}],
///   "delayMilliseconds": 50,
///   "dropAfter": 1
/// }
/// ```
///
/// `data` lines are split on LF into `data:` fields. `dropAfter: N` closes the connection
/// abruptly after N events (no final chunk), as a network drop would.
struct EventStreamBody: Sendable {
    static let keys: Set<String> = ["events", "delayMilliseconds", "dropAfter"]
    static let eventKeys: Set<String> = ["id", "event", "data", "retry", "comment"]

    /// Each event's bytes.
    var chunks: [[UInt8]]
    /// The delay before each event after the first.
    var interval: Duration
    /// Close the connection abruptly after this many events.
    var dropAfter: Int?

    /// Reads an `eventStream` object.
    /// - Throws: ``ValuePattern/InvalidMapping`` naming the first problem.
    static func parse(_ json: JSONValue, at location: String) throws -> EventStreamBody {
        guard case .object(let members) = json else {
            throw ValuePattern.InvalidMapping(description: "\(location) must be an object")
        }
        try MappingKeys.check(members, allowed: keys, at: location)
        guard case .array(let events)? = members["events"] else {
            throw ValuePattern.InvalidMapping(description: "\(location).events must be an array of events")
        }
        var chunks: [[UInt8]] = []
        for (index, event) in events.enumerated() {
            let at = "\(location).events[\(index)]"
            guard case .object(let fields) = event else {
                throw ValuePattern.InvalidMapping(description: "\(at) must be an object")
            }
            try MappingKeys.check(fields, allowed: eventKeys, at: at)
            var text = ""
            for name in ["comment", "retry", "event", "id"] {
                guard let value = fields[name] else { continue }
                let string = value.matchText
                guard !string.contains("\n"), !string.contains("\r") else {
                    throw ValuePattern.InvalidMapping(description: "\(at).\(name) must be one line")
                }
                if name == "retry", value.intValue.map({ $0 >= 0 }) != true {
                    throw ValuePattern.InvalidMapping(description: "\(at).retry must be milliseconds ≥ 0")
                }
                text += name == "comment" ? ": \(string)\n" : "\(name): \(string)\n"
            }
            if let data = fields["data"] {
                for line in data.matchText.split(separator: "\n", omittingEmptySubsequences: false) {
                    text += "data: \(line)\n"
                }
            }
            chunks.append(Array((text + "\n").utf8))
        }
        var interval = Duration.zero
        if let delay = members["delayMilliseconds"] {
            guard let value = delay.doubleValue, value >= 0, value <= ResponseDefinition.maxDelayMilliseconds
            else {
                throw ValuePattern.InvalidMapping(
                    description: "\(location).delayMilliseconds must be a number from 0 to a day")
            }
            interval = .milliseconds(value)
        }
        var dropAfter: Int?
        if let drop = members["dropAfter"] {
            guard let value = drop.intValue, value >= 0, value <= chunks.count else {
                throw ValuePattern.InvalidMapping(
                    description: "\(location).dropAfter must be a count from 0 to the number of events")
            }
            dropAfter = value
        }
        if let dropAfter { chunks = Array(chunks.prefix(dropAfter)) }
        return EventStreamBody(chunks: chunks, interval: interval, dropAfter: dropAfter)
    }
}
