import CCurlShim
import Courier
import CourierPrimitives

/// What an easy handle keeps for its whole life, at an address that does not move: libcurl's
/// callbacks get this address as their user pointer and find the handle's current transfer
/// here, so the user pointers and the error buffer are set once per handle rather than set and
/// cleared for every request.
///
/// Touched by whoever holds the handle: the pool, then one transfer (its caller's thread until
/// `submit`, then the thread driving the multi handle), then the pool again, each hand-off
/// through a lock.
struct EasyHandleContext {
    /// The transfer the handle serves, unretained (see `CurlTransfer.configure`); nil between
    /// transfers.
    var transfer: UnsafeMutableRawPointer?
    /// `CURLOPT_ERRORBUFFER`, `CURL_ERROR_SIZE` bytes.
    let errorBuffer: UnsafeMutablePointer<CChar>
    /// The values the handle has for options that most requests share, so that a request sets
    /// them only when its own differ (libcurl's defaults: 0, no list, decoding on).
    var connectTimeoutMilliseconds = 0
    var totalTimeoutMilliseconds = 0
    var headerList: UnsafeMutablePointer<curl_slist>?
    var contentDecodingOff = false
    /// Whether `CURLOPT_USERAGENT` is set (for requests that may go through a proxy, whose
    /// CONNECT carries it); a direct request's `User-Agent` is a line of the shared list.
    var userAgentIsOption = false
    /// Whether `CURLOPT_PROXY` is "" (connect directly).
    var proxyIsDirect = false
    /// The header lines the last transfer allocated (the first and the last of them; the last may
    /// lead on to one of the pool's shared lists): freed when the next transfer has set its own list,
    /// or with the handle, so that the handle never points at a freed list.
    var ownedHeaderList: (first: UnsafeMutablePointer<curl_slist>, last: UnsafeMutablePointer<curl_slist>)?

    /// Forgets what a `curl_easy_reset` put back to libcurl's defaults.
    mutating func wasReset() {
        connectTimeoutMilliseconds = 0
        totalTimeoutMilliseconds = 0
        headerList = nil
        contentDecodingOff = false
        userAgentIsOption = false
        proxyIsDirect = false
        freeOwnedHeaderList()
    }

    mutating func freeOwnedHeaderList() {
        guard let (first, last) = ownedHeaderList else { return }
        last.pointee.next = nil  // the pool's lines are not the transfer's to free
        curl_slist_free_all(first)
        ownedHeaderList = nil
    }
}

/// A libcurl easy handle and its context.
struct EasyHandle: @unchecked Sendable {  // handed over through locks only (see EasyHandleContext)
    let easy: UnsafeMutableRawPointer
    let context: UnsafeMutablePointer<EasyHandleContext>

    /// A new handle with libcurl's defaults; nil when libcurl cannot make one.
    static func make() -> EasyHandle? {
        guard let easy = curl_easy_init() else { return nil }
        let size = ccurl_error_size()
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
        buffer.initialize(repeating: 0, count: size)
        let context = UnsafeMutablePointer<EasyHandleContext>.allocate(capacity: 1)
        context.initialize(to: EasyHandleContext(errorBuffer: buffer))
        return EasyHandle(easy: easy, context: context)
    }

    /// Frees the handle (which no multi handle may hold) and its context.
    func cleanup() {
        curl_easy_cleanup(easy)
        context.pointee.freeOwnedHeaderList()
        context.pointee.errorBuffer.deallocate()
        context.deinitialize(count: 1)
        context.deallocate()
    }
}

/// Easy handles kept for reuse after their transfer ends, so that a request does not pay for
/// `curl_easy_init`, its buffers and `curl_easy_cleanup` every time, nor for setting the
/// options that are the same for every request of the transport.
///
/// A handle comes back with those constant options still set: its transfer has put every
/// option of its own back to libcurl's default first (`CurlTransfer.releaseHandle`). It is
/// detached from the transport's share handle, so a pooled handle holds no reference into the
/// loop and can be freed from any thread, in any order.
final class EasyHandlePool: Sendable {
    private struct State {
        /// Each with whether it has libcurl's defaults (it was reset) rather than the constant options.
        var idle: [(handle: EasyHandle, hasDefaults: Bool)] = []
        var closed = false
    }

    // A handle in `idle` is owned by the pool alone (see the type's comment).
    private let state = Locked(State())
    private let capacity: Int
    /// The transport's own header lines, which end the list of every request that does not set
    /// them itself, made once: a transfer links its own lines to one of these lists (see
    /// `sharedHeaders`). `acceptEncodingThenUserAgent` is the `Accept-Encoding` line followed by
    /// `userAgent`, the `User-Agent` line, which is also a list on its own; `acceptEncoding`
    /// is a second `Accept-Encoding` line that ends there. Read-only until `deinit` frees them,
    /// after every handle (a handle in use keeps the pool alive through its transfer).
    nonisolated(unsafe) private let acceptEncodingThenUserAgent: UnsafeMutablePointer<curl_slist>?
    nonisolated(unsafe) private let acceptEncoding: UnsafeMutablePointer<curl_slist>?
    /// The `User-Agent` line; nil when there is none to send, or it is not a valid field line.
    nonisolated(unsafe) let userAgent: UnsafeMutablePointer<curl_slist>?
    /// Why the transport's `User-Agent` cannot be sent (a CR, LF or NUL in it), if it cannot: a
    /// request that would carry it is refused with this (`CurlTransport.send`), so it never reaches
    /// `CURLOPT_USERAGENT`, which libcurl writes into the head as it is.
    let userAgentProblem: CourierError?

    /// - Parameters:
    ///   - capacity: the most idle handles kept; more are freed.
    ///   - acceptEncoding: the value of the transport's `Accept-Encoding` line; nil for none.
    ///   - userAgent: the value of the transport's `User-Agent` line; nil or "" for none.
    init(capacity: Int, acceptEncoding encodings: String? = nil, userAgent agent: String? = nil) {
        self.capacity = max(0, capacity)
        var agentLine: UnsafeMutablePointer<curl_slist>?
        var agentProblem: CourierError?
        if let agent, !agent.isEmpty {
            do {
                try HTTPHeaders.validate(name: "User-Agent", value: agent)
                agentLine = curl_slist_append(nil, "User-Agent: \(agent)")
            } catch {
                agentProblem = error
            }
        }
        userAgent = agentLine
        userAgentProblem = agentProblem
        if let encodings {
            let both = curl_slist_append(nil, "Accept-Encoding: \(encodings)")
            both?.pointee.next = agentLine
            acceptEncodingThenUserAgent = both ?? agentLine
            acceptEncoding = curl_slist_append(nil, "Accept-Encoding: \(encodings)")
        } else {
            acceptEncodingThenUserAgent = agentLine
            acceptEncoding = nil
        }
    }

    /// The shared lines a request links to the end of its own: the `Accept-Encoding` line when
    /// `acceptEncoding`, and the `User-Agent` line when `userAgent` (and the pool has one).
    func sharedHeaders(acceptEncoding wantsEncodings: Bool, userAgent wantsAgent: Bool)
        -> UnsafeMutablePointer<curl_slist>?
    {
        switch (wantsEncodings, wantsAgent && userAgent != nil) {
        case (true, true): acceptEncodingThenUserAgent
        case (true, false): acceptEncoding
        case (false, true): userAgent
        case (false, false): nil
        }
    }

    /// An idle handle, or a new one; nil when libcurl cannot make one. `hasDefaults` is true for a
    /// new or reset handle, which needs the transport's constant options, and false for one that
    /// still has them.
    func take() -> (handle: EasyHandle, hasDefaults: Bool)? {
        if let idle = state.withLock({ $0.idle.popLast() }) { return idle }
        return EasyHandle.make().map { ($0, true) }
    }

    /// Takes back a handle that no multi handle holds and whose transfer has put its own options
    /// back to their defaults. Keeps it, or frees it when the pool is full or closed.
    ///
    /// - Parameter reset: whether to clear the handle with `curl_easy_reset` first. libcurl 7.88
    ///   keeps a count of the requests it re-sent on a fresh connection after a reused one died,
    ///   over the handle's whole life, and fails the sixth such request ("Connection died, tried 5
    ///   times before giving up"); only a reset clears the count.
    func recycle(_ handle: EasyHandle, reset: Bool = false) {
        _ = ccurl_easy_setopt_pointer(handle.easy, CURLOPT_SHARE, nil)
        if reset {
            curl_easy_reset(handle.easy)
            handle.context.pointee.wasReset()
        }
        let kept = state.withLock { state in
            guard !state.closed, state.idle.count < capacity else { return false }
            state.idle.append((handle, reset))
            return true
        }
        if !kept { handle.cleanup() }
    }

    /// Frees a handle that no multi handle holds, without keeping it.
    func discard(_ handle: EasyHandle) {
        _ = ccurl_easy_setopt_pointer(handle.easy, CURLOPT_SHARE, nil)
        handle.cleanup()
    }

    /// Handles waiting for reuse.
    var idleCount: Int { state.withLock { $0.idle.count } }

    /// Frees every idle handle; handles recycled later are freed at once.
    func close() {
        let idle = state.withLock { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        for entry in idle { entry.handle.cleanup() }
    }

    deinit {
        close()
        // The User-Agent line is the second node of `acceptEncodingThenUserAgent`, or that list itself.
        if let acceptEncodingThenUserAgent { curl_slist_free_all(acceptEncodingThenUserAgent) }
        if let acceptEncoding { curl_slist_free_all(acceptEncoding) }
    }
}
