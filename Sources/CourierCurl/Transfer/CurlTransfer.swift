import CCurlShim
import Courier
import CourierPrimitives
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request in flight: its easy handle, the body going out, the body coming in, and
/// the state machine that decides when and how its continuation is resumed.
///
/// `@unchecked Sendable` because: `state` is `Locked`; every other mutable field (the
/// sources, the sink, the head parser, progress counters, the handle's context) is touched
/// first by `init` on the caller's thread and then, after `submit` hands the transfer over
/// through one of the loop's locks, only by the thread driving the multi handle (which holds
/// the loop's engine lock), inside libcurl callbacks or `complete`.
final class CurlTransfer: @unchecked Sendable {
    /// Checked, although `TransferStateMachine` already hands it out exactly once: ThreadSanitizer
    /// cannot see the runtime's hand-off after an unchecked resume, and reports a race.
    typealias Continuation = CheckedContinuation<TransportResponse, any Error>

    /// The easy handle and its context; returned to the pool by `releaseHandle` under the loop's
    /// engine lock (or by `deinit` when the transfer never reached the loop).
    let handle: EasyHandle
    var easy: UnsafeMutableRawPointer { handle.easy }
    /// Where `easy` goes back when the transfer is done.
    let handles: EasyHandlePool
    let plan: CurlRequestPlan
    let request: TransportRequest
    private let progressHandler: (@Sendable (TransferProgress) -> Void)?
    private let state = Locked(TransferStateMachine<Continuation>())
    /// Raised once the state machine has an abort reason: what every callback asks first,
    /// read without taking the lock.
    private let aborting = Atomic<Bool>(false)

    // Loop-thread state (see the type's comment). One thread at a time touches it, and each
    // callback's accesses end before the next begins, so it is not checked for exclusive access
    // at run time: the check costs about 90 instructions an access, and a response makes dozens.
    private let source: BodySource
    @exclusivity(unchecked) private var sink: ResponseSink
    @exclusivity(unchecked) private var head = ResponseHeadParser()
    @exclusivity(unchecked) private var lastUpload: Int64 = -1
    @exclusivity(unchecked) private var lastDownload: Int64 = -1
    /// Bytes moved either way at the last progress call, and when that count last changed.
    @exclusivity(unchecked) private var activityCount: Int64 = 0
    @exclusivity(unchecked) private var lastActivity = ContinuousClock.now
    /// Whether libcurl had begun the transfer at the last idle check (`checkIdle`).
    @exclusivity(unchecked) private var begun = false
    @exclusivity(unchecked) private var handleReleased = false
    /// Whether the transfer waits in its origin's queue for a place in the multi handle.
    @exclusivity(unchecked) var isWaiting = false
    /// When it started waiting, if it has a total timeout (which counts the wait).
    @exclusivity(unchecked) var waitingSince: ContinuousClock.Instant?
    /// Its origin's place in the loop, from submission on.
    @exclusivity(unchecked) var originQueue: OriginQueue?
    /// Where a streamed body goes, when the request asked for `.streamed` delivery; the
    /// continuation is then resumed with the head, and the body ends the stream.
    let stream: StreamBuffer?

    /// Creates the easy handle and configures it from `plan`; opens the body source.
    /// - Throws: `CourierError` when the body cannot be opened or libcurl refuses an option.
    init(
        request: TransportRequest, plan: CurlRequestPlan, handles: EasyHandlePool, stream: StreamBuffer? = nil
    ) throws {
        guard let (handle, hasDefaults) = handles.take() else {
            throw CourierError(
                .invalidConfiguration, "libcurl could not create an easy handle", request: request)
        }
        self.handle = handle
        self.handles = handles
        self.plan = plan
        self.request = request
        self.progressHandler = request.progress
        self.stream = stream
        sink = ResponseSink(maxResponseBytes: plan.maxResponseBytes ?? request.options.maxResponseBytes)
        do {
            source = try BodySource(request.body)
        } catch var error as CourierError {
            // Untouched, but a handle with libcurl's defaults would go back as one with the
            // constant options.
            if hasDefaults { handles.discard(handle) } else { handles.recycle(handle) }
            error.request = request
            throw error
        }
        do {
            try configure(handleHasDefaults: hasDefaults)
        } catch {
            releaseHandle(reusable: false)
            throw error
        }
    }

    deinit {
        releaseHandle()
    }

    // MARK: Continuation

    /// Installs the continuation; returns true when the transfer should go to the loop.
    /// Resumes the continuation itself (one of the two places) when the task was
    /// cancelled before the transfer started.
    func start(_ continuation: Continuation) -> Bool {
        switch state.withLock({ $0.start(continuation) }) {
        case .submit:
            return true
        case .fail(let continuation, var error):
            error.request = error.request ?? request
            continuation.resume(throwing: error)  // resume #1: never started
            return false
        }
    }

    /// Records a cancellation or shutdown; returns whether the loop must remove the handle.
    func stop(_ reason: TransferAbortReason) -> Bool {
        let action = state.withLock { $0.stop(reason) }
        aborting.store(true, ordering: .releasing)
        return action == .removeFromLoop
    }

    /// Whether a callback should stop libcurl now.
    var shouldAbort: Bool { aborting.load(ordering: .acquiring) }

    /// Records a failure found in a callback.
    func fail(_ reason: TransferAbortReason) {
        state.withLock { $0.fail(reason) }
        aborting.store(true, ordering: .releasing)
    }

    /// Ends the transfer (under the loop's engine lock), after its handle left the multi handle:
    /// reads the response (for `CURLE_OK`) or maps the error, frees the handle and
    /// resumes the continuation (resume #2, the only other place). `removedEarly` is
    /// set when the loop removed the handle before libcurl finished (cancel, shutdown).
    func complete(result code: CURLcode, removedEarly: Bool = false) {
        var result: Result<TransportResponse, CourierError>
        if removedEarly {
            result = .failure(CourierError(.cancelled, "the transfer was stopped", request: request))
        } else if code == CURLE_OK {
            result = makeResponse()
        } else {
            let text = String(cString: handle.context.pointee.errorBuffer)
            result = .failure(CurlErrorMapping.error(for: code, errorBuffer: text, request: request))
        }
        source.close()
        if let stream {
            if case .failure(let error) = result {
                stream.finish(state.withLock { $0.explained(error) })
            } else {
                stream.finish(nil)
            }
        }
        // A handle whose transfer failed part way may keep state that resetting options does
        // not clear (libcurl 7.88 then refuses CURLOPT_BUFFERSIZE on it): free it instead.
        releaseHandle(reusable: code == CURLE_OK && !removedEarly)
        guard let (continuation, final) = state.withLock({ $0.finish(result) }) else { return }
        continuation.resume(with: final.mapError { $0 as any Error })  // resume #2
    }

    private func makeResponse() -> Result<TransportResponse, CourierError> {
        let body = sink.finish()
        reportFinalProgress()
        let status = CurlResponseInfo.status(easy) ?? head.status ?? 0
        return .success(
            TransportResponse(
                status: status,
                headers: head.headers,
                body: body,
                url: CurlResponseInfo.effectiveURL(easy, requested: plan.url, requestedURL: request.url),
                timings: CurlResponseInfo.timings(easy),
                httpVersion: CurlResponseInfo.httpVersion(easy) ?? head.httpVersion
            ))
    }

    /// Returns the easy handle to the pool, with this request's options put back to their
    /// defaults (its header list stays until the next transfer has set its own). Idempotent.
    /// Must not run while the handle is in a multi handle: the loop removes it first; `deinit`
    /// only runs after that.
    private func releaseHandle(reusable: Bool = true) {
        guard !handleReleased else { return }
        handleReleased = true
        handle.context.pointee.transfer = nil
        // A transfer that opened a connection may have been re-sent by libcurl after a reused
        // connection died, which counts against the handle for good unless it is reset (see
        // `EasyHandlePool.recycle`); the reset clears this request's options too. New connections
        // are rare once connections are reused.
        var opened = 0
        if reusable { _ = ccurl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &opened) }
        if reusable && opened > 0 {
            handles.recycle(handle, reset: true)
        } else if reusable && resetRequestOptions() {
            handles.recycle(handle)
        } else {
            handles.discard(handle)
        }
    }

    // MARK: Callbacks (the thread driving the multi handle)

    /// One header line arrived. Returns false to abort the transfer.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if shouldAbort { return false }
        guard head.consume(bytes) == .end, let status = head.status, status >= 200 else { return true }
        // A coding libcurl cannot decode: the body comes as it is, rather than failing.
        if head.hasCodings, !ContentDecoding.canDecode(head.headers) {
            _ = ccurl_easy_setopt_long(easy, CURLOPT_HTTP_CONTENT_DECODING, 0)
            handle.context.pointee.contentDecodingOff = true
        }
        if stream != nil {
            deliverHead(status: status)
            return true
        }
        guard let limit = plan.maxResponseBytes,
            !TransferOptions.hasNoBody(status: status, method: request.method),
            let declared = head.contentLength, declared > limit
        else { return true }
        // Refuse before reading a byte of a body that cannot fit.
        fail(.responseTooLarge(limit: limit, declared: declared))
        return false
    }

    /// Body bytes arrived. Returns false to abort the transfer.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if shouldAbort { return false }
        do {
            try sink.write(bytes)
            return true
        } catch {
            guard case .tooLarge(let limit) = error else { return false }
            fail(.responseTooLarge(limit: limit, declared: head.contentLength))
            return false
        }
    }

    /// A streamed transfer's head is complete: the caller gets it now, the body follows
    /// through `stream`.
    private func deliverHead(status: Int) {
        let response = TransportResponse(
            status: status, headers: head.headers,
            url: CurlResponseInfo.effectiveURL(easy, requested: plan.url, requestedURL: request.url),
            timings: CurlResponseInfo.timings(easy),
            httpVersion: CurlResponseInfo.httpVersion(easy) ?? head.httpVersion)
        guard let (continuation, final) = state.withLock({ $0.finish(.success(response)) }) else { return }
        continuation.resume(with: final.mapError { $0 as any Error })  // resume #3: a streamed head
    }

    /// Streamed body bytes arrived. Returns what the write callback returns: the count when
    /// they were taken, the pause value when the consumer is behind (libcurl keeps them and
    /// offers them again after `unpause`), 0 to abort.
    func receiveStreamed(_ bytes: UnsafeRawBufferPointer, stream: StreamBuffer) -> Int {
        if shouldAbort { return 0 }
        switch stream.offer(bytes) {
        case .accepted, .acceptedThenPause: return bytes.count
        case .refused: return ccurl_writefunc_pause()
        case .cancelled:
            fail(.cancelled)
            return 0
        }
    }

    /// A transfer that waited for a connection is about to enter the multi handle (loop
    /// thread): the wait was not idle time, and the total timeout keeps only what is left of
    /// it. Returns false, having ended the transfer with a timeout, when nothing is left.
    func startAfterWaiting() -> Bool {
        lastActivity = ContinuousClock.now
        guard let since = waitingSince else { return true }
        let remaining = plan.totalTimeoutMilliseconds - Int((lastActivity - since) / .milliseconds(1))
        guard remaining > 0 else {
            complete(result: CURLE_OPERATION_TIMEDOUT)
            return false
        }
        _ = ccurl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, remaining)
        handle.context.pointee.totalTimeoutMilliseconds = remaining
        return true
    }

    /// Lets a paused streamed transfer go on (loop thread, in its turn). libcurl may deliver the kept bytes
    /// from inside this call. The pause was the consumer's, so it does not count as idle time.
    func unpause() {
        lastActivity = ContinuousClock.now
        _ = ccurl_easy_unpause(easy)
    }

    /// libcurl wants body bytes. Returns the count, or nil to abort.
    func sendBody(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        if shouldAbort { return nil }
        do {
            return try source.read(into: buffer, capacity: capacity)
        } catch let error as BodySourceError {
            fail(.bodyReadFailed(error.message))
            return nil
        } catch {
            fail(.bodyReadFailed("\(error)"))
            return nil
        }
    }

    /// libcurl wants to send the body again from the start.
    func rewindBody() -> Bool { source.rewind() }

    /// Progress from `CURLOPT_XFERINFOFUNCTION`. Returns false to abort. The idle timeout is not
    /// checked here but by the loop (`checkIdle`), which also sees a transfer that libcurl does
    /// not call back, so the ten or so calls a small request gets cost no clock reading.
    func reportProgress(downloadTotal: Int64, downloaded: Int64, uploadTotal: Int64, uploaded: Int64) -> Bool
    {
        if shouldAbort { return false }
        guard let progressHandler else { return true }
        if uploaded != lastUpload, uploaded > 0 || lastUpload < 0, plan.upload != .none {
            lastUpload = uploaded
            let total = uploadTotal > 0 ? uploadTotal : uploadLength
            progressHandler(TransferProgress(direction: .upload, completed: uploaded, total: total))
        }
        if downloaded != lastDownload, downloaded > 0 {
            lastDownload = downloaded
            progressHandler(
                TransferProgress(
                    direction: .download, completed: downloaded,
                    total: downloadTotal > 0 ? downloadTotal : nil))
        }
        return true
    }

    /// The idle check, which the loop runs for every running transfer every 250 ms (libcurl
    /// calls a transfer back only while it works on it, which it does not for a stalled one).
    /// Returns false when the transfer was idle too long: it has then failed, and the loop
    /// must remove it.
    ///
    /// The idle clock starts when libcurl begins the transfer on a connection. Before that the
    /// transfer waits for a connection in libcurl's own queue (an HTTP/2 origin that answers over
    /// HTTP/1.1, several origins behind one proxy), which is no more idle time than the wait in
    /// the loop's origin queue, or it is connecting, which `connectTimeout` bounds.
    func checkIdle(at now: ContinuousClock.Instant) -> Bool {
        guard let idle = plan.idleTimeout, !shouldAbort else { return true }
        if !begun {
            // Until then `lastActivity` is when the transfer entered the multi handle, about where
            // libcurl's clock starts (libcurl restarts it for a transfer that waited in its queue:
            // so it is taken as the start of the idle time only within one check's interval).
            guard let waited = CurlResponseInfo.pretransferTime(easy) else { return true }
            begun = true
            lastActivity = min(now, max(lastActivity + waited, now - CurlMultiLoop.idleCheckInterval))
        }
        let counts = CurlResponseInfo.byteCounts(easy)
        let moved = counts.downloaded + counts.uploaded
        // A paused stream (a slow consumer) is not idle.
        if moved != activityCount || stream?.isPaused == true {
            activityCount = moved
            lastActivity = now
        } else if now - lastActivity >= idle {
            fail(.idle(idle.timeInterval))
            return false
        }
        return true
    }

    private var uploadLength: Int64? {
        if case .sized(let length) = plan.upload { return length }
        return nil
    }

    /// libcurl does not promise a progress call after the last byte, so the final
    /// counts are reported once more if they were not.
    private func reportFinalProgress() {
        guard let progressHandler else { return }
        let counts = CurlResponseInfo.byteCounts(easy)
        if plan.upload != .none, counts.uploaded != lastUpload {
            lastUpload = counts.uploaded
            progressHandler(
                TransferProgress(direction: .upload, completed: counts.uploaded, total: counts.uploaded))
        }
        if counts.downloaded > 0, counts.downloaded != lastDownload {
            lastDownload = counts.downloaded
            progressHandler(
                TransferProgress(direction: .download, completed: counts.downloaded, total: counts.downloaded)
            )
        }
    }
}
