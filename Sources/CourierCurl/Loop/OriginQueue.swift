import CCurlShim

/// The transfers of one origin: how many are in the multi handle, and the ones waiting for
/// a place, first in, first out. Used under the loop's engine lock only (a class, so that the
/// queue is changed in place, never copied out of the engine's dictionary). The lock makes every
/// access exclusive, so the fields are not checked at run time.
final class OriginQueue {
    @exclusivity(unchecked) var running = 0
    /// Waiting transfers not cancelled (a cancelled one stays in `queue` until popped).
    @exclusivity(unchecked) var waiting = 0
    /// Whether the origin answers over HTTP/2, where transfers share connections: guessed
    /// from the request, then learned from each response.
    @exclusivity(unchecked) var multiplexed: Bool
    /// Popped slots are nil until the array is compacted.
    @exclusivity(unchecked) private var queue: [CurlTransfer?] = []
    @exclusivity(unchecked) private var head = 0

    init(multiplexed: Bool) { self.multiplexed = multiplexed }

    /// How many transfers may be in the multi handle at once: one per connection, or
    /// libcurl's default of 100 streams per connection over HTTP/2.
    func limit(_ connections: Int) -> Int {
        guard connections > 0 else { return .max }
        guard multiplexed else { return connections }
        let (streams, overflow) = connections.multipliedReportingOverflow(by: 100)
        return overflow ? .max : streams
    }

    var isEmpty: Bool { running == 0 && waiting == 0 }

    func learn(multiplexed: Bool) { self.multiplexed = multiplexed }

    func append(_ transfer: CurlTransfer) {
        queue.append(transfer)
        waiting += 1
    }

    /// The first transfer still waiting (cancelled ones are skipped and dropped).
    func popFirst() -> CurlTransfer? {
        while head < queue.count {
            guard let transfer = queue[head] else { break }
            queue[head] = nil
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            if transfer.isWaiting {
                waiting -= 1
                return transfer
            }
        }
        return nil
    }
}

/// One-time libcurl initialisation.
enum CurlGlobal {
    /// Runs `curl_global_init` once per process (Swift's lazy globals are thread-safe).
    static let initialized: Bool = ccurl_global_init_all() == CURLE_OK
}
