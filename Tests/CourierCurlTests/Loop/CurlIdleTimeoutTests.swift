import Courier
import CourierPrimitives
import Foundation
import MockServer
import TestSupport
import Testing

@testable import CourierCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The idle timeout counts the time a running transfer moves no byte, not the time it waits
/// for a connection in libcurl's own queue.
@Suite(.blocksItsThread) struct CurlIdleTimeoutTests {
    /// Two origins behind one forward proxy are one host to libcurl, which holds the second
    /// request in its queue while the first has the only connection; the loop's origin queues
    /// (one per origin) let both into the multi handle. The first answer trickles in for about
    /// 3.6 s, a chunk every 300 ms, so neither request is ever idle for its 1.5 s (five times the
    /// gap, for a loaded machine), while the second waits more than twice that long.
    @Test(.timeLimit(.minutes(1))) func aRequestWaitingInLibcurlsQueueIsNotIdle() async throws {
        let proxy = try RecordingProxy()
        defer { proxy.stop() }
        let trickle = ClosureHandler { _ in
            ServerResponse(
                body: .data(Data(repeating: UInt8(ascii: "t"), count: 12)),
                dribble: ChunkedDribble(numberOfChunks: 12, totalDuration: .milliseconds(3600)))
        }
        let quick = ClosureHandler { _ in ServerResponse.text("quick", status: 200) }
        try await withMockServer(handlers: [trickle]) { slow in
            try await withMockServer(handlers: [quick]) { fast in
                let configuration = CurlTransport.Configuration(
                    maxConnectionsPerHost: 1, proxy: try ProxySettings(url: proxy.url))
                try await CurlTransport.with(configuration: configuration) { sut in
                    let options = TransferOptions(idleTimeout: .milliseconds(1500))
                    let first = Task {
                        try await sut.send(
                            TransportRequest(
                                url: slow.baseURL.appendingPathComponent("slow"), options: options))
                    }
                    #expect(await eventually { proxy.entries.count == 1 })
                    let second = try await sut.send(
                        TransportRequest(url: fast.baseURL.appendingPathComponent("quick"), options: options))
                    #expect(second.body.data == Data("quick".utf8))
                    #expect(try await first.value.body.data == Data(repeating: UInt8(ascii: "t"), count: 12))
                    #expect(proxy.entries.count == 2)
                }
            }
        }
    }

    /// A transfer libcurl has not begun (never started here) is not idle, however long ago it
    /// was made.
    @Test func aTransferNotBegunIsNotIdle() throws {
        let handles = EasyHandlePool(capacity: 1)
        defer { handles.close() }
        let request = TransportRequest(
            url: try #require(URL(string: "http://127.0.0.1:9/never")),
            options: TransferOptions(idleTimeout: .milliseconds(100)))
        let transfer = try CurlTransfer(
            request: request, plan: try CurlRequestPlan.make(for: request, configuration: .init()),
            handles: handles)
        #expect(transfer.checkIdle(at: .now + .seconds(5)))
    }
}
