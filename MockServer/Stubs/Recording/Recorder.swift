import CourierPrimitives
import Foundation

/// Proxied exchanges and the recording state: what `/__admin/recordings/*` turns into stubs.
final class Recorder: Sendable {
    /// One request that was proxied, and what the upstream answered.
    struct Exchange: Sendable {
        var request: ServerRequest
        var response: ProxyResponse
    }

    enum Status: String, Sendable {
        case neverStarted = "NeverStarted"
        case recording = "Recording"
        case stopped = "Stopped"
    }

    private struct State {
        var status = Status.neverStarted
        var spec = RecordSpec()
        /// Exchanges since recording started.
        var recorded: [Exchange] = []
        /// Every proxied exchange (recordings and proxying stubs), newest last, for snapshots.
        var proxied: [Exchange] = []
    }

    private let state = Locked(State())
    /// The most exchanges kept for snapshots; older ones are dropped.
    let limit: Int

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    var status: Status { state.withLock { $0.status } }

    /// Where requests go while recording; nil when not recording.
    var target: String? {
        state.withLock { $0.status == .recording ? $0.spec.targetBaseURL : nil }
    }

    /// Starts recording; false when a recording is already running.
    func start(_ spec: RecordSpec) -> Bool {
        state.withLock { state in
            guard state.status != .recording else { return false }
            state.status = .recording
            state.spec = spec
            state.recorded = []
            return true
        }
    }

    /// Stops recording and returns its spec and exchanges; nil when none was running.
    func stop() -> (spec: RecordSpec, exchanges: [Exchange])? {
        state.withLock { state in
            guard state.status == .recording else { return nil }
            state.status = .stopped
            defer { state.recorded = [] }
            return (state.spec, state.recorded)
        }
    }

    /// Every proxied exchange kept.
    var proxiedExchanges: [Exchange] { state.withLock { $0.proxied } }

    /// Notes a proxied exchange (into the recording too when `recorded`).
    func capture(_ exchange: Exchange, recorded: Bool) {
        var exchange = exchange
        exchange.request.body = (try? exchange.request.bodyData()) ?? Data()
        exchange.request.bodyFile = nil
        state.withLock { state in
            if recorded && state.status == .recording { state.recorded.append(exchange) }
            guard limit > 0 else { return }
            state.proxied.append(exchange)
            if state.proxied.count > limit { state.proxied.removeFirst(state.proxied.count - limit) }
        }
    }
}
