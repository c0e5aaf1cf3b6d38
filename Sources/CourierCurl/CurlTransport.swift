import CCurlShim
import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `Transport` on libcurl: one multi handle driven by one dedicated thread, with
/// keep-alive connection reuse, HTTP/2 over TLS where the server offers it, streamed
/// request and response bodies, and libcurl's timing breakdown.
///
/// ```swift
/// let transport = CurlTransport(configuration: .init(caBundle: URL(fileURLWithPath: "ca.pem")))
/// let response = try await transport.send(TransportRequest(url: url))
/// await transport.shutdown()
/// ```
///
/// No libcurl call blocks a Swift concurrency thread: libcurl's sockets are non-blocking,
/// and a thread that waits for them is the transport's own loop thread. When that thread
/// is waiting, `send` starts the transfer on the caller's thread (writing the request to a
/// warm connection, and reading the answer if it is already there), so that a request costs
/// no wake-up of the loop thread; otherwise it queues the transfer for the loop. Either way
/// the caller waits on a continuation. A `.stream` body's reader and the progress closure run
/// on whichever thread is driving libcurl at the time, one at a time, so they should be quick
/// (reading a file is; waiting on the network is not). The body comes whole or as a stream,
/// as the request's `TransferOptions.delivery` asks.
///
/// Each call is one exchange: a 3xx is returned as it came (libcurl's own redirect following
/// is off), and `NetworkManager` follows it, by the same rules over every transport.
public final class CurlTransport: Transport {
    /// The settings this transport was created with.
    public let configuration: Configuration
    let loop: CurlMultiLoop
    /// Whether the environment named a proxy when the transport was created (`ProxyEnvironment`).
    let environmentNamesProxy: Bool

    /// Creates a transport and starts its loop thread.
    ///
    /// - Parameter configuration: TLS, connection and identification settings.
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, hook: nil)
    }

    /// Tests only: a transport whose loop reports each `CurlLoopEvent` to `loopHook`.
    convenience init(configuration: Configuration = Configuration(), loopHook: @escaping CurlLoopHook) {
        self.init(configuration: configuration, hook: loopHook)
    }

    private init(configuration: Configuration, hook: CurlLoopHook?) {
        self.configuration = configuration
        self.loop = CurlMultiLoop(configuration: configuration, hook: hook)
        self.environmentNamesProxy = ProxyEnvironment.namesProxy()
    }

    deinit {
        loop.requestStop()
    }

    /// Sends `request` through libcurl, as one exchange: a redirect is returned, not followed.
    ///
    /// With `.whole` delivery the body is read into memory on the loop thread, up to
    /// `maxResponseBytes` (a larger `Content-Length` is refused before a byte is read). With
    /// `.streamed` it returns once the head has arrived, and the body follows through the
    /// stream: while the consumer is behind by `TransferOptions.streamBufferBytes`, the write
    /// callback pauses the transfer (`CURL_WRITEFUNC_PAUSE`), so libcurl stops reading the
    /// socket; the loop thread lets it go on (`curl_easy_pause`) once the consumer has read half
    /// of that. A pause is not idle time for the idle timeout.
    ///
    /// - Parameter request: what to send.
    /// - Returns: the response, whatever its status code.
    /// - Throws: `CourierError`: an invalid-request code for a malformed URL, header or
    ///   body; a transport code for a failed transfer; `.cancelled` when the task is
    ///   cancelled or the transport is shut down.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let plan = try CurlRequestPlan.make(
            for: request, configuration: configuration, environmentNamesProxy: environmentNamesProxy)
        if plan.offersUserAgent, var problem = loop.handles.userAgentProblem {
            problem.request = request
            throw problem
        }
        if Task.isCancelled {
            throw CourierError(.cancelled, "the request was cancelled", request: request)
        }
        let loop = self.loop
        let buffer: StreamBuffer?
        if request.options.delivery == .streamed {
            buffer = StreamBuffer(capacity: request.options.streamBufferBytes, request: request)
        } else {
            buffer = nil
        }
        let transfer = try CurlTransfer(request: request, plan: plan, handles: loop.handles, stream: buffer)
        buffer?.setHandlers(
            onResume: { [weak transfer] in
                if let transfer { loop.unpause(transfer) }
            },
            onCancel: { [weak transfer] in
                guard let transfer else { return }
                transfer.fail(.cancelled)
                loop.remove(transfer, reason: .cancelled)
            })
        var response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard transfer.start(continuation) else { return }  // already resumed (cancelled)
                loop.hook?(.submitting(transfer))
                if !loop.submit(transfer) {
                    _ = transfer.stop(.shutdown)
                    // Never reached the loop, so finishing here is the only resume.
                    transfer.complete(result: CURLE_ABORTED_BY_CALLBACK, removedEarly: true)
                }
            }
        } onCancel: {
            if transfer.stop(.cancelled) { loop.remove(transfer, reason: .cancelled) }
        }
        if let buffer { response.body = .stream(ResponseStream(buffer)) }
        return response
    }

    /// Stops the transport: transfers in flight end with `.cancelled`, later sends fail
    /// with `.cancelled`, and every libcurl handle is freed before this returns.
    /// Idempotent. Dropping the transport does the same without waiting.
    public func shutdown() async {
        loop.requestStop()
        await loop.waitUntilStopped()
    }

    /// Runs `body` with a new transport and shuts it down on every exit path.
    ///
    /// - Parameters:
    ///   - configuration: the transport's settings.
    ///   - body: the work to do with the transport.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public static func with<T: Sendable>(
        configuration: Configuration = Configuration(),
        _ body: (CurlTransport) async throws -> T
    ) async throws -> T {
        let transport = CurlTransport(configuration: configuration)
        do {
            let result = try await body(transport)
            await transport.shutdown()
            return result
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    /// The executor of the transport's loop thread.
    ///
    /// A task that prefers it runs on that thread between the loop's turns, so its requests
    /// go out and its responses come back without waking another thread: the fastest way to
    /// send many small requests, one after another or many at once.
    ///
    /// ```swift
    /// import CourierContract
    ///
    /// let transport = CurlTransport()
    /// let manager = NetworkManager(transport: transport, baseURL: baseURL)
    /// let ids = ["n1", "n2", "n3"]
    /// try await withTaskExecutorPreference(transport.executor) {
    ///     for id in ids { _ = try await manager.send(NotesAPI.note(id: id)) }
    /// }
    /// ```
    ///
    /// The task's own work (building requests, decoding responses) then shares the thread with
    /// libcurl and with every other such task, so it should not block. Once the transport
    /// is shut down, the global concurrent executor runs the task instead.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    public var executor: any TaskExecutor { loop }

    /// What the transport has done so far: transfers finished by libcurl and the
    /// connections they had to open (the rest reused a kept-alive connection): for benchmarks.
    package var statistics: Statistics { loop.statistics }

    /// Counters of a transport's work.
    package struct Statistics: Sendable, Hashable {
        /// Transfers libcurl finished, successfully or not (cancelled ones are not counted).
        package var transfersCompleted = 0
        /// New connections opened (`CURLINFO_NUM_CONNECTS` summed over transfers).
        package var connectionsOpened = 0
        /// Times the loop thread woke from waiting for its sockets: for a response, a
        /// timeout, or work another thread queued. A request sent while the loop waits is
        /// started by its caller and needs no wake-up of its own; an idle transport wakes at
        /// most about once a second.
        package var loopWakeups = 0
    }
}

/// libcurl's identity.
package enum CurlInfo {
    /// libcurl's version string, such as "libcurl/7.88.1 OpenSSL/3.0.11 zlib/1.2.13 nghttp2/1.52.0".
    ///
    /// Read once: libcurl builds it by asking each library it links for its version (LDAP's
    /// initialisation alone is some 7 million instructions), and every default
    /// `CurlTransport.Configuration` names it in its User-Agent.
    package static let version = String(cString: ccurl_version())
}
