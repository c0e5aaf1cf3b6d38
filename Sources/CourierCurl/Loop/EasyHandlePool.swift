import CCurlShim
import Courier
import CourierPrimitives

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
        var idle: [(easy: UnsafeMutableRawPointer, hasDefaults: Bool)] = []
        var closed = false
    }

    // A handle in `idle` is owned by the pool alone (see the type's comment).
    private let state = Locked(State())
    private let capacity: Int

    /// - Parameter capacity: the most idle handles kept; more are freed.
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// An idle handle, or a new one; nil when libcurl cannot make one. `hasDefaults` is true for a
    /// new or reset handle, which needs the transport's constant options, and false for one that
    /// still has them.
    func take() -> (easy: UnsafeMutableRawPointer, hasDefaults: Bool)? {
        if let idle = state.withLock({ $0.idle.popLast() }) { return (idle.easy, idle.hasDefaults) }
        return curl_easy_init().map { ($0, true) }
    }

    /// Takes back a handle that no multi handle holds and whose transfer has put its own options
    /// back to their defaults. Keeps it, or frees it when the pool is full or closed.
    ///
    /// - Parameter reset: whether to clear the handle with `curl_easy_reset` first. libcurl 7.88
    ///   keeps a count of the requests it re-sent on a fresh connection after a reused one died,
    ///   over the handle's whole life, and fails the sixth such request ("Connection died, tried 5
    ///   times before giving up"); only a reset clears the count (curl issue 5974, PR 19066).
    func recycle(_ easy: UnsafeMutableRawPointer, reset: Bool = false) {
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_SHARE, nil)
        if reset { curl_easy_reset(easy) }
        let kept = state.withLock { state in
            guard !state.closed, state.idle.count < capacity else { return false }
            state.idle.append((easy, reset))
            return true
        }
        if !kept { curl_easy_cleanup(easy) }
    }

    /// Frees a handle that no multi handle holds, without keeping it.
    func discard(_ easy: UnsafeMutableRawPointer) {
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_SHARE, nil)
        curl_easy_cleanup(easy)
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
        for handle in idle { curl_easy_cleanup(handle.easy) }
    }

    deinit {
        close()
    }
}
