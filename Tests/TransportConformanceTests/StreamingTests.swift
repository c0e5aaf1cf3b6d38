import Courier
import CourierPrimitives
import CourierTesting
import Foundation
import MockServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What streaming costs in memory, over both socket transports. What a stream does (the body
/// whole, a cut body, cancelling, dropping, a consumer that is behind) is checked for every
/// transport by the conformance suite's `streaming.` checks.
@Suite struct StreamingTests {
    /// A consumer that sleeps as it reads a large body: the stream's buffer stays within its
    /// bound, and so does the process's resident memory when the test runs alone.
    ///
    /// Other tests run in parallel in the same process, so in a whole-suite run the RSS bound
    /// is checked only when `COURIER_STREAM_MIB` is set (the measurement: run this test alone,
    /// `COURIER_STREAM_TRANSPORT=curl|urlsession` picks one transport); the buffer bound is
    /// always checked. The figures are printed. The two transports' cases run one after the
    /// other, so that one's memory is not counted in the other's.
    @Test(.serialized, arguments: StreamingTests.measuredTransports)
    func aSlowConsumerOfALargeStreamKeepsMemoryBounded(transport: TransportUnderTest) async throws {
        let measuring = ProcessInfo.processInfo.environment["COURIER_STREAM_MIB"].flatMap(Int64.init)
        // 32 MiB in the parallel suite, where the consumer may be starved of a thread for long
        // spells (so the server waits up to 10 minutes on the paused reader); 1 GiB when measuring.
        let mebibytes = measuring ?? 32
        let size = mebibytes << 20
        try await withConformanceServer(writeTimeout: .seconds(600)) { server in
            try await transport.with { sut in
                var request = TransportRequest(urlRequest: try server.request("/bytes/\(size)", timeout: 600))
                request.options.streamBufferBytes = 1 << 20
                let baseline = ResidentMemory.current()
                var peak = baseline
                let started = ContinuousClock.now
                let streamed = try await sut.stream(request)
                var received: Int64 = 0
                var sinceSleep = 0
                var firstBytesOK = false
                var failure: CourierError?
                do {
                    for try await chunk in streamed.body {
                        if received == 0 {
                            firstBytesOK = chunk == Pattern.bytes(offset: 0, count: chunk.count)
                        }
                        received += Int64(chunk.count)
                        sinceSleep += chunk.count
                        if sinceSleep >= 512 << 10 {
                            // About 250 MB/s at most: far slower than loopback.
                            sinceSleep = 0
                            try await Task.sleep(for: .milliseconds(2))
                            peak = max(peak, ResidentMemory.current())
                        }
                    }
                } catch let error as CourierError {
                    failure = error
                }
                let growth = peak - baseline
                let ending = failure.map { ", ended by \($0.code): \($0.message)" } ?? ", read to the end"
                let name = transport.name
                let memory =
                    "RSS baseline \(baseline >> 20) MiB, peak \(peak >> 20) MiB, growth \(growth >> 20) MiB"
                let buffered = "peak buffered \(streamed.body.peakBufferedBytes >> 10) KiB"
                let took = ContinuousClock.now - started
                print(
                    "stream \(name) \(mebibytes) MiB, sleeping consumer: \(memory), \(buffered), \(took)\(ending)"
                )
                if transport.kind == .curl || failure == nil {
                    #expect(failure == nil)
                    #expect(received == size)
                } else {
                    // Documented: FoundationNetworking cannot pause, so a consumer that falls
                    // too far behind fails instead of growing memory.
                    #expect(failure?.code == .responseTooLarge)
                }
                #expect(firstBytesOK)
                if measuring != nil {
                    #expect(growth < 48 << 20, "resident memory grew by \(growth >> 20) MiB")
                }
                #expect(streamed.body.peakBufferedBytes <= 9 << 20)
            }
        }
    }
}

extension StreamingTests {
    /// Both socket transports, or the one `COURIER_STREAM_TRANSPORT` names.
    static var measuredTransports: [TransportUnderTest] {
        switch ProcessInfo.processInfo.environment["COURIER_STREAM_TRANSPORT"] {
        case "curl": [.curl]
        case "urlsession": [.urlSession]
        default: TransportUnderTest.all
        }
    }
}

/// The process's resident set size, from /proc/self/status (Linux).
enum ResidentMemory {
    static func current() -> Int64 {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Int64(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kib << 10
    }
}
