import Courier
import CourierPrimitives
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport on Foundation's `URLSession` (FoundationNetworking on Linux).
///
/// Long-lived sessions with one delegate serve every request: bodies upload from memory
/// or straight from a file, response bodies collect in memory up to `maxResponseBytes` or
/// stream to the caller as they arrive, and progress, redirects, timeouts and cancellation
/// are handled per transfer.
///
/// Behaviour on Linux, where `URLSession` is swift-corelibs-foundation over libcurl:
/// - **Stream bodies** are written to a temporary file first and uploaded from it
///   (Linux has no bound stream pairs for `uploadTask(withStreamedRequest:)`); the file is
///   deleted when the transfer ends. The stream is read once per exchange, so disk space for
///   the body is needed, memory is not.
/// - **Connect timeout**: URLSession exposes no connect phase, so
///   `TransferOptions.connectTimeout` is not enforced separately; the total timeout
///   (`totalTimeout`, else the request's `timeoutInterval`) bounds the whole transfer,
///   connection included, and also serves as the idle timeout.
/// - **Timings**: task metrics are not delivered on Linux, so only `firstByte`,
///   `redirect` and `total` are measured (by this transport's clock); `httpVersion` is
///   not known and stays `nil`.
/// - **Custom CA certificates** are not supported: FoundationNetworking gives no
///   server-trust hook on Linux. Use `CurlTransport` for a private CA.
/// - URLSession's own cookies and caching are off, so no state leaks between requests;
///   `NetworkManager`'s `CookieJar` and an `HTTPCache` interceptor work as over any transport.
/// - Background sessions do not exist on Linux and are not used anywhere.
/// - **Proxies and pinning**: FoundationNetworking ignores `connectionProxyDictionary` and has
///   no server-trust hook, so `init(configuration:)` refuses an explicit proxy or a public-key
///   pin with `.invalidConfiguration`; the `http_proxy`/`no_proxy` environment variables still
///   apply. Use `CurlTransport` for either.
///
/// Requests with a body use a second session and `Connection: close`, so an upload never
/// goes out on a reused connection that may have died (FoundationNetworking cannot
/// rewind an upload to re-send it).
///
/// Each call is one exchange: a redirect is returned as it came, and `NetworkManager` follows
/// it. A 301–303 or 305–308 without a `Location` is returned without its body, which
/// FoundationNetworking does not hand over.
public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let uploadSession: URLSession
    private let delegate: SessionDelegate
    private let delegateQueue: OperationQueue
    /// The serial queue under `delegateQueue` (an operation queue holds it unowned).
    private let delegateDispatchQueue = DispatchQueue(label: "courier.urlsession.delegate")
    /// Whether `shutdown()` ran. Tasks are made under this lock, and the sessions are
    /// invalidated under it: FoundationNetworking traps ("Session invalidated") on a task
    /// made after that, so none is.
    private let isShutDown = Locked(false)

    /// Creates a transport with its own sessions.
    /// - Parameter maximumConnectionsPerHost: the connection pool size per host.
    public convenience init(maximumConnectionsPerHost: Int = 6) {
        self.init(checked: Configuration(maximumConnectionsPerHost: maximumConnectionsPerHost))
    }

    /// Creates a transport on a copy of your session configuration: its `protocolClasses` (a
    /// `URLProtocol` answering in process), headers and timeouts apply; its cookie storage and URL cache
    /// are turned off, as the manager keeps cookies and caching itself.
    /// - Parameters:
    ///   - sessionConfiguration: the configuration to start from; it is copied, not changed.
    ///   - configuration: pool size, proxy and pins, checked as `init(configuration:)` checks them.
    /// - Throws: `CourierError` `.invalidConfiguration` as `init(configuration:)` does.
    public convenience init(
        sessionConfiguration: URLSessionConfiguration, configuration: Configuration = Configuration()
    ) throws(CourierError) {
        try configuration.check()
        self.init(checked: configuration, base: sessionConfiguration)
    }

    /// Creates a transport from settings `Configuration.check()` has accepted.
    init(checked settings: Configuration, base: URLSessionConfiguration? = nil) {
        let delegate = SessionDelegate()
        #if canImport(FoundationNetworking)
            let queue: OperationQueue = BoundedDelegateQueue()
        #else
            let queue = OperationQueue()
        #endif
        queue.name = "courier.urlsession.delegate"
        queue.maxConcurrentOperationCount = 1
        // A serial queue of its own runs the callbacks, on a thread of its own: the shared pool's
        // threads may all be waiting for the session's work queue, which waits for this one.
        queue.underlyingQueue = delegateDispatchQueue
        self.delegate = delegate
        delegateQueue = queue
        // Each session takes a copy of the configuration.
        let configuration = base?.copy() as? URLSessionConfiguration ?? URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = settings.maximumConnectionsPerHost
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        settings.apply(to: configuration)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
        uploadSession = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        if !isShutDown.withLock({ $0 }) {
            session.finishTasksAndInvalidate()
            uploadSession.finishTasksAndInvalidate()
        }
    }

    /// Stops the transport: transfers in flight end with `.cancelled`, later sends fail with
    /// `.cancelled`, and both sessions are invalidated. Idempotent. Dropping the transport
    /// instead lets the transfers in flight finish.
    public func shutdown() async {
        let first = isShutDown.withLock { shutDown in
            guard !shutDown else { return false }
            shutDown = true
            session.invalidateAndCancel()
            uploadSession.invalidateAndCancel()
            return true
        }
        guard first else { return }
        // End every transfer now, on the delegate queue like every other callback; after an
        // invalidation FoundationNetworking may never report the cancelled tasks.
        let delegate = self.delegate
        let queue = delegateQueue
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // addOperation may wait while the queue is behind: never on a cooperative thread.
            Self.control.async {
                queue.addOperation {
                    delegate.endAll(CourierError(.cancelled, "the transport was shut down"))
                    done.resume()
                }
            }
        }
    }

    /// Refuses what this transport cannot send: a URL that is not absolute http(s), a
    /// cancelled task, or a GET with a body. The method and headers
    /// were checked above the transport, by `NetworkManager`.
    private static func checkSendable(_ request: TransportRequest) throws {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw CourierError(
                .invalidURL, "URLSessionTransport sends only absolute http and https URLs",
                request: request)
        }
        if Task.isCancelled {
            throw CourierError(.cancelled, "the task was cancelled", request: request)
        }
        // FoundationNetworking hands the method and header lines to libcurl as they are: a CR, LF or
        // space in them would put a second request on the wire. The manager checks them before the
        // first hop; this guards a caller that uses the transport alone, as CurlTransport's plan does.
        try request.validateForSending()
        if request.method == .get, !Redirects.isEmpty(request.body) {
            throw CourierError(
                .invalidBody,
                "URLSessionTransport cannot send a GET with a body (FoundationNetworking refuses it); use CurlTransport",
                request: request)
        }
    }

    /// Sends the request, as one exchange: a redirect is returned, not followed.
    ///
    /// With `.whole` delivery the body is gathered in memory, up to `maxResponseBytes`. With
    /// `.streamed` it returns once the head has arrived, and the body follows through the
    /// stream. On Apple platforms, while the consumer is behind by
    /// `TransferOptions.streamBufferBytes` the data task is suspended
    /// (`URLSessionTask.suspend()`), so URLSession stops reading the socket; it is resumed once
    /// the consumer has read half of that. Bytes already on their way to the delegate are still
    /// queued, so the buffer may pass its capacity by what the session had read ahead. A
    /// suspension is not idle time for the idle timeout.
    ///
    /// On Linux, FoundationNetworking cannot pause a data task (`suspend()` does not stop
    /// delivery), and holding its work queue back would stall every URLSession in the process.
    /// So the stream ends with `.responseTooLarge` once the consumer is 8 × `streamBufferBytes`
    /// behind, rather than hold an unbounded backlog in memory. Use `CurlTransport` for a slow
    /// consumer of a large body.
    ///
    /// - Throws: `CourierError`: `.invalidURL`/`.invalidBody` for a request that cannot go
    ///   out, a transport code for a failed transfer, `.cancelled` when the task is
    ///   cancelled.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try Self.checkSendable(request)
        let prepared = try await PreparedUpload.make(for: request)
        defer { if let file = prepared.temporaryFile { try? FileManager.default.removeItem(at: file) } }
        let buffer =
            request.options.delivery == .streamed
            ? StreamBuffer(capacity: request.options.streamBufferBytes, request: request) : nil
        var response = try await sendOnce(request, upload: prepared, stream: buffer)
        if let buffer { response.body = .stream(ResponseStream(buffer)) }
        return response
    }

    /// Where the calls into FoundationNetworking that wait for a session's work queue run: making,
    /// resuming and cancelling a task. That queue is held for seconds while a delegate queue is
    /// behind (`BoundedDelegateQueue`); a thread of the shared pool that waits for it is taken
    /// from every Swift task and every dispatch block in the process, and the pool then lacks
    /// the thread the delegate queue needs to catch up. A serial queue of its own waits on one
    /// thread of its own.
    static let control = DispatchQueue(label: "courier.urlsession.control")

    /// One task for one exchange: redirects are returned, never followed by URLSession. The
    /// task is made and started on the control queue, never the caller's thread, and a
    /// cancelled call returns at once, whatever that queue is waiting for.
    private func sendOnce(
        _ request: TransportRequest, upload prepared: PreparedUpload, stream: StreamBuffer?
    ) async throws -> TransportResponse {
        let pending = PendingTransfer()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard pending.setContinuation(continuation) else { return }
                Self.control.async { [self] in
                    let task: URLSessionTask
                    do {
                        task = try makeTask(request, upload: prepared)
                    } catch {
                        pending.abandon(error)
                        return
                    }
                    let transfer = Transfer(
                        request: request, task: task, delegateQueue: delegateQueue, stream: stream)
                    delegate.register(transfer, for: task)
                    if isShutDown.withLock({ $0 }) {
                        // Shut down between making the task and registering it, so `endAll` may have
                        // missed it: it ends here instead (`start` sees the failure and never resumes
                        // the task).
                        delegate.unregister(task)
                        transfer.fail(
                            CourierError(.cancelled, "the transport was shut down", request: request))
                    }
                    pending.install(transfer)
                }
            }
        } onCancel: {
            pending.cancel(CourierError(.cancelled, "the task was cancelled", request: request))
        }
    }

    private func makeTask(_ request: TransportRequest, upload: PreparedUpload) throws -> URLSessionTask {
        var urlRequest = request.urlRequest
        urlRequest.httpBody = nil
        urlRequest.httpShouldHandleCookies = false
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        // FoundationNetworking arms its own timer with whole seconds (0.75 s would become 0), and
        // that timer firing during a redirect decision crashes it; `Transfer` enforces the idle
        // and total timeouts itself, to the millisecond.
        urlRequest.timeoutInterval = 7 * 24 * 3600
        return try isShutDown.withLock { shutDown in
            guard !shutDown else {
                throw CourierError(.cancelled, "the transport was shut down", request: request)
            }
            switch upload {
            case .none:
                return session.dataTask(with: urlRequest)
            case .data(let data):
                return uploadSession.uploadTask(with: Self.freshConnection(urlRequest), from: data)
            case .file(let url, _):
                return uploadSession.uploadTask(with: Self.freshConnection(urlRequest), fromFile: url)
            }
        }
    }

    /// Requests with a body go out on their own session with `Connection: close`, so they
    /// never use a kept-alive connection: when a reused connection has died,
    /// FoundationNetworking's libcurl re-sends the head on a fresh one but cannot rewind the
    /// upload, and the call stalls until the server gives up on the missing body.
    private static func freshConnection(_ request: URLRequest) -> URLRequest {
        var request = request
        if request.value(forHTTPHeaderField: "Connection") == nil {
            request.setValue("close", forHTTPHeaderField: "Connection")
        }
        return request
    }
}

/// The request body in the form URLSession uploads.
enum PreparedUpload: Sendable {
    case none
    case data(Data)
    /// A file to upload; `temporary` when this transport made it and must delete it.
    case file(URL, temporary: Bool)

    var temporaryFile: URL? {
        if case .file(let url, true) = self { return url }
        return nil
    }

    static func make(for request: TransportRequest) async throws -> PreparedUpload {
        switch request.body {
        case .empty: return .none
        case .data(let data): return data.isEmpty ? .none : .data(data)
        case .file(let url):
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw CourierError(
                    .invalidBody, "cannot read body file \(url.path)", request: request)
            }
            return .file(url, temporary: false)
        case .stream(let stream):
            return .file(try await spool(stream, request: request), temporary: true)
        }
    }

    /// Writes a stream into a temporary file, on a dispatch queue so that the blocking
    /// reads and writes stay off the cooperative pool.
    static func spool(_ stream: BodyStream, request: TransportRequest) async throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-upload-\(UUID().uuidString)")
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    try write(stream, to: url)
                    continuation.resume(returning: url)
                } catch {
                    try? FileManager.default.removeItem(at: url)
                    continuation.resume(
                        throwing: CourierError.wrapping(error, request: request).withCode(.invalidBody))
                }
            }
        }
    }

    private static func write(_ stream: BodyStream, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CourierError(
                .invalidBody, "cannot create a temporary file for the request body at \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let reader = try stream.makeReader()
        defer { reader.close() }
        var written: Int64 = 0
        while true {
            let chunk = try reader.read(upTo: 256 * 1024)
            if chunk.isEmpty { break }
            try handle.write(contentsOf: chunk)
            written += Int64(chunk.count)
        }
        if let length = stream.length, length != written {
            throw CourierError(
                .invalidBody, "the body stream produced \(written) bytes but declared \(length)")
        }
    }
}
