import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An in-memory transport for unit tests: answers from closures or fixture files, with
/// delays and errors, and records every request. No sockets.
///
/// ```swift
/// let stub = StubTransport(fixturesDirectory: directory)
/// stub.on(.get, "/notes/*", .fixture("note.json"))
/// stub.on(.post, "/notes", .json(#"{"id":"n1","text":"Buy milk"}"#, status: 201))
/// let manager = NetworkManager(transport: stub, baseURL: URL(string: "https://api.test"))
/// ```
///
/// Routes are tried in the order they were added; a path pattern matches the URL path
/// exactly, with `*` matching any one segment. A request no route matches gets a 404 whose
/// body says so. The transport honours the request's delivery (whole, or a stream of one chunk),
/// `maxResponseBytes`, progress and task cancellation like a real one. Like every transport it
/// makes one exchange per call: a stubbed 3xx is returned, and a `NetworkManager` on the stub
/// follows it (and keeps cookies) as over the network.
public final class StubTransport: Transport {
    /// A request as the stub saw it.
    public struct RecordedRequest: Sendable {
        /// The head as sent.
        public var urlRequest: URLRequest
        /// The method.
        public var method: HTTPMethod
        /// The URL.
        public var url: URL
        /// The header fields.
        public var headers: HTTPHeaders
        /// The body bytes, up to `StubTransport.recordedBodyLimit` (the rest is read and
        /// counted but not kept).
        public var body: Data
        /// The full body length.
        public var bodyLength: Int64

        /// The body as UTF-8 text.
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    /// Answers a recorded request.
    public typealias Handler = @Sendable (RecordedRequest) async throws -> StubResponse

    private struct Route {
        let matches: @Sendable (RecordedRequest) -> Bool
        let handler: Handler
    }

    private struct State {
        var routes: [Route] = []
        var requests: [RecordedRequest] = []
    }

    private let state = Locked(State())
    private let fallback: Handler?
    /// Where relative fixture paths are found.
    public let fixturesDirectory: URL?
    /// The most body bytes kept per recorded request. Default 8 MiB.
    public let recordedBodyLimit: Int

    /// Creates a stub transport.
    /// - Parameters:
    ///   - fixturesDirectory: where relative fixture paths are found.
    ///   - recordedBodyLimit: the most body bytes kept per recorded request.
    ///   - fallback: answers requests no route matches; default a 404.
    public init(fixturesDirectory: URL? = nil, recordedBodyLimit: Int = 8 << 20, fallback: Handler? = nil) {
        self.fixturesDirectory = fixturesDirectory
        self.recordedBodyLimit = recordedBodyLimit
        self.fallback = fallback
    }

    /// Creates a stub transport that answers every request with `handler`.
    public convenience init(_ handler: @escaping Handler) {
        self.init(fallback: handler)
    }

    /// Answers `method` and `path` (with `*` for any one segment) with `response`.
    public func on(_ method: HTTPMethod, _ path: String, _ response: StubResponse) {
        on(method, path) { _ in response }
    }

    /// Answers `method` and `path` with each response in turn; the last one repeats.
    public func on(_ method: HTTPMethod, _ path: String, sequence responses: [StubResponse]) {
        let counter = Locked(0)
        on(method, path) { _ in
            let index = counter.withLock { count in
                defer { count += 1 }
                return count
            }
            return responses.isEmpty ? .status(404) : responses[min(index, responses.count - 1)]
        }
    }

    /// Answers `method` and `path` with a closure.
    public func on(_ method: HTTPMethod, _ path: String, handler: @escaping Handler) {
        let pattern = path.split(separator: "/", omittingEmptySubsequences: false)
        on(
            matching: { request in
                guard request.method == method else { return false }
                let actual = request.url.path.split(separator: "/", omittingEmptySubsequences: false)
                return actual.count == pattern.count
                    && zip(actual, pattern).allSatisfy { $1 == "*" || $0 == $1 }
            }, handler: handler)
    }

    /// Answers a declared operation (its method and path template) with a closure.
    ///
    /// ```swift
    /// let stub = StubTransport()
    /// stub.on(NotesAPI.note(id: "n1").operation) { request in .json(#"{"id":"n1","text":"Buy milk"}"#) }
    /// ```
    public func on(_ operation: APIOperation, handler: @escaping Handler) {
        let template = PathTemplate(operation.path)
        on(
            matching: { request in
                guard request.method == operation.method,
                    let values = template.match(request.url.path(percentEncoded: true))
                else { return false }
                // A variable's value is text once decoded (`%20`), never nothing.
                return values.values.allSatisfy { $0.removingPercentEncoding?.isEmpty == false }
            }, handler: handler)
    }

    /// Answers every operation of a declared API with an example of its response (see
    /// `Schema.example()`) and its success status, unless a route added earlier answers first.
    public func serveExamples<A: API>(of api: A.Type) {
        for operation in A.operations {
            let body = (try? operation.success.schema?.example().prettyData()) ?? Data()
            on(operation) { _ in
                .data(body, status: operation.successStatus, headers: ["Content-Type": "application/json"])
            }
        }
    }

    /// Answers requests that `matches` accepts with a closure.
    public func on(matching: @escaping @Sendable (RecordedRequest) -> Bool, handler: @escaping Handler) {
        state.withLock { $0.routes.append(Route(matches: matching, handler: handler)) }
    }

    /// Every request sent so far, in order.
    public var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// Forgets recorded requests (routes stay).
    public func clearRequests() { state.withLock { $0.requests.removeAll() } }

    /// Records the request, finds its answer, and delivers it like a real transport.
    /// - Throws: the stubbed `CourierError`; `.cancelled` when the task is cancelled during
    ///   a delay; `.responseTooLarge` over `maxResponseBytes`; `.invalidConfiguration` for a
    ///   missing fixture.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let url = request.url
        let recorded = try record(request, url: url)
        let handler = state.withLock { state in
            state.requests.append(recorded)
            return state.routes.first { $0.matches(recorded) }?.handler
        }
        let stub: StubResponse
        if let handler = handler ?? fallback {
            stub = try await handler(recorded)
        } else {
            stub = .text("StubTransport: no stub for \(recorded.method) \(url.path)", status: 404)
        }
        if stub.delay > .zero {
            do {
                try await Task.sleep(for: stub.delay)
            } catch {
                throw CourierError(
                    .cancelled, "the task was cancelled", request: request, underlying: error)
            }
        }
        if Task.isCancelled {
            throw CourierError(.cancelled, "the task was cancelled", request: request)
        }
        if var error = stub.error {
            if error.request == nil { error.request = request }
            throw error
        }
        return try deliver(stub, for: request, url: url)
    }

    private func record(_ request: TransportRequest, url: URL) throws -> RecordedRequest {
        let headers = request.headers
        var kept = Data()
        var length: Int64 = 0
        func take(_ chunk: Data) {
            length += Int64(chunk.count)
            if kept.count < recordedBodyLimit { kept.append(chunk.prefix(recordedBodyLimit - kept.count)) }
            request.progress?(
                TransferProgress(direction: .upload, completed: length, total: request.body.length))
        }
        switch request.body {
        case .empty: break
        case .data(let data): take(data)
        case .file(let fileURL):
            let reader: FileHandle
            do {
                reader = try FileHandle(forReadingFrom: fileURL)
            } catch {
                throw CourierError(
                    .invalidBody, "cannot read body file \(fileURL.path)", request: request,
                    underlying: error)
            }
            defer { try? reader.close() }
            while let chunk = try? reader.read(upToCount: 256 * 1024), !chunk.isEmpty { take(chunk) }
        case .stream(let stream):
            do {
                let reader = try stream.makeReader()
                defer { reader.close() }
                while true {
                    let chunk = try reader.read(upTo: 256 * 1024)
                    if chunk.isEmpty { break }
                    take(chunk)
                }
            } catch {
                throw CourierError.wrapping(error, request: request).withCode(.invalidBody)
            }
        }
        return RecordedRequest(
            urlRequest: request.urlRequest,
            method: request.method,
            url: url, headers: headers, body: kept, bodyLength: length)
    }

    private func deliver(_ stub: StubResponse, for request: TransportRequest, url: URL) throws
        -> TransportResponse
    {
        var headers = stub.headers
        var data: Data
        switch stub.body {
        case .data(let bytes): data = bytes
        case .fixture(let path):
            let fileURL =
                path.hasPrefix("/")
                ? URL(fileURLWithPath: path)
                : (fixturesDirectory?.appendingPathComponent(path) ?? URL(fileURLWithPath: path))
            do {
                data = try Data(contentsOf: fileURL)
            } catch {
                throw CourierError(
                    .invalidConfiguration, "stub fixture not found: \(fileURL.path)",
                    request: request,
                    underlying: error)
            }
            if headers["Content-Type"] == nil {
                headers["Content-Type"] = MediaType.guess(forExtension: fileURL.pathExtension)
            }
        }
        // A HEAD announces the length the GET's body would have, and sends none (RFC 9110 §9.3.2).
        if headers["Content-Length"] == nil { headers["Content-Length"] = String(data.count) }
        if request.method == .head { data = Data() }
        let total = Int64(data.count)
        request.progress?(TransferProgress(direction: .download, completed: total, total: total))
        let body: ResponseBody
        if request.options.delivery == .streamed {
            // Handed out as a real transport streams it: one chunk, read by the caller.
            body = .stream(ResponseStream(chunks: data.isEmpty ? [] : [data]))
        } else if total > request.options.maxResponseBytes {
            throw CourierError(
                .responseTooLarge,
                "the response body of \(total) bytes exceeds maxResponseBytes (\(request.options.maxResponseBytes))",
                request: request, status: stub.status, headers: headers)
        } else {
            body = .data(data)
        }
        return TransportResponse(
            status: stub.status, headers: headers, body: body, url: url, timings: Timings(total: 0),
            httpVersion: "HTTP/1.1")
    }
}
