import Courier
import Foundation
import MockServer

/// A transport that answers from a ``Cassette`` and records what it has no recording for through the
/// transport it wraps, as the cassette's mode allows.
///
/// ```swift
/// let cassette = try Cassette("login", in: directory, mode: .once)
/// let replaying = NetworkManager(transport: CassetteTransport(cassette, recordingThrough: transport), baseURL: baseURL)
/// _ = try await replaying.send(NotesAPI.list())
/// try cassette.save()
/// ```
public struct CassetteTransport: Transport {
    /// The cassette.
    public let cassette: Cassette
    /// The transport new exchanges are recorded through.
    public let inner: any Transport

    /// Wraps `inner`.
    /// - Parameters:
    ///   - cassette: the recordings.
    ///   - inner: the transport that reaches the real server when recording.
    public init(_ cassette: Cassette, recordingThrough inner: any Transport) {
        self.cassette = cassette
        self.inner = inner
    }

    /// Replays the recording that matches `request`, or records the exchange when the mode allows.
    /// - Throws: `CourierError` `.invalidConfiguration` naming the closest recording when the cassette
    ///   has none for `request` and may not record; what the inner transport throws when recording.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let body = try Self.bodyData(request.body)
        let method = request.method.rawValue
        let (answer, nearMisses) = cassette.replay(method: method, url: request.url, body: body)
        if let answer {
            return try Self.response(answer, for: request)
        }
        guard cassette.records else {
            throw CourierError(
                .invalidConfiguration,
                "the cassette \(cassette.folder.lastPathComponent) (mode \(cassette.mode)) has no recording for "
                    + "\(method) \(Cassette.redactedTarget(request.url))\n\(nearMisses)")
        }
        // Recorded whole, so that a cassette holds a body only once it has arrived complete.
        var recorded = request
        recorded.options.delivery = .whole
        let response = try await inner.send(recorded)
        let responseBody: Data
        switch response.body {
        case .data(let data): responseBody = data
        case .stream(let stream):
            responseBody = try await stream.collect(upTo: Int(request.options.maxResponseBytes))
        case .file(let url, _): responseBody = try Data(contentsOf: url)
        }
        try cassette.record(
            method: method, url: request.url, body: body, status: response.status,
            headers: response.headers.map { ($0.name, $0.value) }, responseBody: responseBody)
        return try Self.deliver(
            responseBody, status: response.status, headers: response.headers, for: request)
    }

    /// Stops the inner transport.
    public func shutdown() async {
        await inner.shutdown()
    }

    private static func bodyData(_ body: RequestBody) throws -> Data {
        switch body {
        case .empty: Data()
        case .data(let data): data
        case .file(let url): try Data(contentsOf: url)
        case .stream:
            throw CourierError(
                .invalidConfiguration,
                "a cassette records bodies it can read again; a stream body is read once")
        }
    }

    private static func response(_ answer: InProcessAnswer, for request: TransportRequest) throws
        -> TransportResponse
    {
        var headers = HTTPHeaders()
        for (name, value) in answer.headers { headers.add(name: name, value: value) }
        return try deliver(answer.body, status: answer.status, headers: headers, for: request)
    }

    /// The response as the request asked for it: whole, or as a stream.
    private static func deliver(
        _ body: Data, status: Int, headers: HTTPHeaders, for request: TransportRequest
    ) throws -> TransportResponse {
        let delivered: ResponseBody =
            request.options.delivery == .streamed
            ? .stream(ResponseStream(chunks: body.isEmpty ? [] : [body])) : .data(body)
        return TransportResponse(status: status, headers: headers, body: delivered, url: request.url)
    }
}
