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
        /// The body bytes held in `recorded`.
        var recordedBytes = 0
        /// Exchanges of the running recording left out for want of room.
        var droppedFromRecording = 0
        /// Every proxied exchange (recordings and proxying stubs), newest last, for snapshots.
        var proxied: [Exchange] = []
        /// The body bytes held in `proxied`.
        var proxiedBytes = 0
    }

    private let state = Locked(State())
    /// The most exchanges kept for snapshots; older ones are dropped.
    let limit: Int
    /// The most body bytes (requests and responses) kept for snapshots; older exchanges are
    /// dropped first. An exchange larger than this on its own is not kept for snapshots.
    let byteLimit: Int
    /// The most exchanges a running recording keeps; later ones are counted instead (a recording
    /// keeps its earliest exchanges: they are the ones a replay starts with).
    let recordingLimit: Int
    /// The most body bytes a running recording keeps; an exchange that would pass it is counted instead.
    let recordingByteLimit: Int

    init(
        limit: Int, byteLimit: Int = 64 << 20, recordingLimit: Int = 10_000,
        recordingByteLimit: Int = 512 << 20
    ) {
        self.limit = max(0, limit)
        self.byteLimit = max(0, byteLimit)
        self.recordingLimit = max(0, recordingLimit)
        self.recordingByteLimit = max(0, recordingByteLimit)
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
            state.recordedBytes = 0
            state.droppedFromRecording = 0
            return true
        }
    }

    /// Stops recording and returns its spec, its exchanges and how many it left out for want of room;
    /// nil when none was running.
    func stop() -> (spec: RecordSpec, exchanges: [Exchange], dropped: Int)? {
        state.withLock { state in
            guard state.status == .recording else { return nil }
            state.status = .stopped
            defer {
                state.recorded = []
                state.recordedBytes = 0
            }
            return (state.spec, state.recorded, state.droppedFromRecording)
        }
    }

    /// Every proxied exchange kept.
    var proxiedExchanges: [Exchange] { state.withLock { $0.proxied } }

    /// Notes a proxied exchange (into the recording too when `recorded`).
    func capture(_ exchange: Exchange, recorded: Bool) {
        var exchange = exchange
        exchange.request.body = (try? exchange.request.bodyData()) ?? Data()
        exchange.request.bodyFile = nil
        let bytes = Self.bytes(of: exchange)
        state.withLock { state in
            if recorded && state.status == .recording {
                if state.recorded.count < recordingLimit && state.recordedBytes + bytes <= recordingByteLimit
                {
                    state.recorded.append(exchange)
                    state.recordedBytes += bytes
                } else {
                    state.droppedFromRecording += 1
                }
            }
            guard limit > 0, bytes <= byteLimit else { return }
            state.proxied.append(exchange)
            state.proxiedBytes += bytes
            var dropped = 0
            while state.proxied.count - dropped > limit || state.proxiedBytes > byteLimit {
                state.proxiedBytes -= Self.bytes(of: state.proxied[dropped])
                dropped += 1
            }
            if dropped > 0 { state.proxied.removeFirst(dropped) }
        }
    }

    private static func bytes(of exchange: Exchange) -> Int {
        exchange.request.body.count + exchange.response.body.count
    }
}
