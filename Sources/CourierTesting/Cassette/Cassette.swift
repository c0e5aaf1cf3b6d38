import Courier
import CourierPrimitives
import Foundation
import MockServer

/// A recording of HTTP exchanges for a test, kept as WireMock mappings in
/// `<directory>/<name>/mappings/cassette.json`, so `courier mock --mappings <directory>/<name>` serves
/// it too. Secrets (`Authorization`, cookies, tokens, passwords, API keys) are replaced by
/// `<redacted>` as they are recorded, in the request's URL and body and in the response's headers and
/// body; they never reach the disk.
///
/// A cassette replays by the mock server's own matching, in process. It records through a
/// ``CassetteTransport`` (any Courier transport) or a ``URLProtocolMock`` (any URLSession).
public final class Cassette: Sendable {
    /// When a cassette records and when it only replays.
    public enum Mode: Sendable, Hashable {
        /// Records every exchange when the cassette does not exist yet; afterwards only replays, and a
        /// request it has no recording for fails.
        case once
        /// Replays what it has, and records requests it has no recording for.
        case newEpisodes
        /// Only replays; a request it has no recording for fails, naming the closest recording.
        case none
        /// Records every exchange again, replacing the cassette.
        case all
    }

    /// What a request must share with a recording to be answered by it.
    public struct Matching: OptionSet, Sendable, Hashable {
        /// The raw value.
        public let rawValue: Int
        /// Creates a set from its raw value.
        /// - Parameter rawValue: the bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The method.
        public static let method = Matching(rawValue: 1)
        /// The path and the query, as sent (secrets redacted).
        public static let url = Matching(rawValue: 2)
        /// The body: equal JSON for a JSON body, equal text otherwise (secrets redacted).
        public static let body = Matching(rawValue: 4)
        /// Method, URL and body.
        public static let all: Matching = [.method, .url, .body]
    }

    /// The cassette's folder, `<directory>/<name>`.
    public let folder: URL
    /// The mode.
    public let mode: Mode
    /// What a request must share with a recording.
    public let matching: Matching
    /// Whether the file held recordings when the cassette was opened.
    public let existed: Bool
    let engine: MockServer
    private let recordings: Locked<[JSONValue]>

    /// The mapping file, `<folder>/mappings/cassette.json`.
    public var file: URL { folder.appendingPathComponent("mappings/cassette.json") }

    /// Opens (or starts) the cassette `name` in `directory`.
    /// - Parameters:
    ///   - name: the cassette's name, a folder name.
    ///   - directory: where cassettes are kept.
    ///   - mode: when to record.
    ///   - matching: what a request must share with a recording.
    /// - Throws: the file system's error when the file cannot be read, ``URLProtocolMockError`` when it
    ///   holds no `mappings` array, ``MockServerError`` when a mapping in it is not valid.
    public init(_ name: String, in directory: URL, mode: Mode, matching: Matching = .all) throws {
        folder = directory.appendingPathComponent(name, isDirectory: true)
        self.mode = mode
        self.matching = matching
        engine = MockServer()
        let file = folder.appendingPathComponent("mappings/cassette.json")
        var existing: [JSONValue] = []
        if FileManager.default.fileExists(atPath: file.path) {
            let data = try Data(contentsOf: file)
            guard case .array(let mappings)? = try JSONValue.parse(data)["mappings"] else {
                throw URLProtocolMockError("the cassette \(file.path) holds no \"mappings\" array")
            }
            existing = mappings
        }
        existed = !existing.isEmpty
        if mode != .all {
            for mapping in existing { try engine.addStubs(json: try JSONEncoder().encode(mapping)) }
        }
        recordings = Locked(mode == .all ? [] : existing)
    }

    /// Whether a request with no recording goes to the network and is recorded.
    var records: Bool {
        switch mode {
        case .all, .newEpisodes: true
        case .once: !existed
        case .none: false
        }
    }

    /// The recording's answer to a request (secrets redacted as when recorded), or nil with the near
    /// misses when none matches.
    func replay(method: String, url: URL, body: Data) -> (answer: InProcessAnswer?, nearMisses: String) {
        guard mode != .all else { return (nil, "") }
        let request = ServerRequest(
            method: method, target: Self.redactedTarget(url), headers: ServerHeaders([("Host", "cassette")]),
            body: Data(Self.redactedBody(body).utf8), remoteAddress: "cassette")
        let answer = engine.answerInProcess(request)
        return answer.matched ? (answer, "") : (nil, String(decoding: answer.body, as: UTF8.self))
    }

    /// Records an exchange, redacted, and replays it from now on.
    func record(
        method: String, url: URL, body: Data, status: Int, headers: [(name: String, value: String)],
        responseBody: Data
    ) throws {
        let mapping = Self.mapping(
            method: method, url: url, body: body, status: status, headers: headers,
            responseBody: responseBody,
            matching: matching)
        try engine.addStubs(json: try JSONEncoder().encode(mapping))
        recordings.withLock { $0.append(mapping) }
    }

    /// The recordings as a HAR 1.2 document, for browsers' and proxies' tools.
    /// - Parameter baseURL: the scheme and host the entries' URLs get.
    /// - Returns: the HAR file's bytes.
    public func harDocument(baseURL: URL) -> Data {
        HAR.document(fromMappings: recordings.withLock { $0 }, baseURL: baseURL).serialized(pretty: true)
    }

    /// The recorded mappings, in the order they were recorded.
    public var mappings: [JSONValue] { recordings.withLock { $0 } }

    /// Writes the recordings, when this cassette records; a replay-only cassette is left as it was.
    /// - Throws: the file system's error.
    public func save() throws {
        guard records else { return }
        let mappings = recordings.withLock { $0 }
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(JSONValue.object(["mappings": .array(mappings)])).write(to: file, options: .atomic)
    }
}
