import Courier
import CourierPrimitives
import Foundation

/// The background revalidations of a cache: at most one per stored entry at a time.
///
/// Each runs in its own task, which holds the rest of the interceptor chain until its one
/// request is answered, and the cache only weakly: a cache that goes away cancels them.
final class Revalidations: Sendable {
    private let running = Locked<[String: Task<Void, Never>]>([:])

    /// Runs `work` in a new task for the entry `id`, unless one is running for it.
    /// - Returns: whether it started.
    @discardableResult
    func start(_ id: String, _ work: @escaping @Sendable () async -> Void) -> Bool {
        running.withLock { running in
            guard running[id] == nil else { return false }
            // The task removes itself under the same lock, so after it was inserted here.
            running[id] = Task { [weak self] in
                await work()
                self?.running.withLock { $0[id] = nil }
            }
            return true
        }
    }

    /// Returns when every task started so far, and every task those started, has finished.
    func waitForAll() async {
        while true {
            let tasks = running.withLock { Array($0.values) }
            guard !tasks.isEmpty else { return }
            for task in tasks { await task.value }
        }
    }

    /// Cancels every running task.
    func cancelAll() {
        for task in running.withLock({ Array($0.values) }) { task.cancel() }
    }

    deinit { cancelAll() }
}

extension HTTPCache {
    /// Waits until the background revalidations started so far (for `stale-while-revalidate`)
    /// have finished, so that what they stored is in place. A failed one leaves the stale
    /// response as it was.
    public func waitForRevalidations() async { await revalidations.waitForAll() }

    /// Whether `stored`, stale, may be served while it is revalidated in the background: its
    /// `stale-while-revalidate` window (RFC 5861) is not over, it may be served stale at all,
    /// and the request asks for nothing fresher.
    func revalidatesInBackground(_ stored: CachedResponse, _ directives: CacheControl) -> Bool {
        staleness(of: stored, within: \.staleWhileRevalidate, directives).map { $0 >= 0 } ?? false
    }

    /// How long `stored` has been stale (negative while fresh), when its own `window` directive
    /// (`stale-while-revalidate` or `stale-if-error`, RFC 5861) is not over, it may be served
    /// stale at all, and a request with `directives` asks for nothing fresher; nil otherwise.
    func staleness(
        of stored: CachedResponse, within window: KeyPath<CacheControl, Int?>, _ directives: CacheControl
    ) -> TimeInterval? {
        let response = CacheControl(stored.httpHeaders)
        guard let window = response[keyPath: window], !response.noCache, !response.mustRevalidate,
            !directives.noCache, directives.maxAge == nil, directives.minFresh == nil
        else { return nil }
        let staleness = stored.age(at: now()) - stored.freshnessLifetime
        return staleness <= TimeInterval(window) ? staleness : nil
    }

    /// Revalidates `stored` with `next` in a background task, unless one runs for it already:
    /// a `304` refreshes it, another storable answer replaces it, an error changes nothing.
    func revalidateInBackground(
        _ stored: CachedResponse, _ request: TransportRequest,
        next: @escaping @Sendable (TransportRequest) async throws -> TransportResponse
    ) {
        var conditional = Self.conditional(request, on: stored)
        // Its body is the cache's, whole, never the caller's stream or progress.
        conditional.options.delivery = .whole
        conditional.progress = nil
        let clock = now
        revalidations.start(stored.id) { [weak self, conditional] in
            let requestTime = clock()
            guard let response = try? await next(conditional), let self else { return }
            if response.status == 304, stored.hasValidator {
                _ = self.refresh(stored, with: response, sentAt: requestTime)
            } else {
                _ = self.keep(
                    response, for: conditional, headers: request.headers, key: stored.key, sentAt: requestTime
                )
            }
        }
    }
}
