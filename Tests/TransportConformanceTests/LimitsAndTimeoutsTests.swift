import Courier
import CourierTesting
import Foundation
import MockServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The size limit applies only to a body that will arrive, and the default timeout means "no
/// progress for that long", not "the whole transfer within that long".
@Suite(.blocksItsThread) struct LimitsAndTimeoutsTests {
    /// A 304 may carry the `Content-Length` of the representation it stands for; no body follows.
    @Test(arguments: TransportUnderTest.all, [304, 204])
    func aBodilessStatusWithALargeContentLengthSucceeds(transport: TransportUnderTest, status: Int)
        async throws
    {
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(
                status: status, headers: [("Content-Length", "50000000"), ("ETag", "\"v1\"")])
        }
        defer { server.stop() }
        try await transport.with { sut in
            var urlRequest = URLRequest(url: server.baseURL.appendingPathComponent("video"))
            urlRequest.setValue("\"v1\"", forHTTPHeaderField: "If-None-Match")
            let response = try await sut.send(
                TransportRequest(urlRequest: urlRequest, options: TransferOptions(maxResponseBytes: 1_000)))
            #expect(response.status == status)
            #expect(response.body.data.isEmpty)
        }
    }

    /// A body that keeps moving for longer than the timeout is not cut: the request's
    /// `timeoutInterval` is an idle timeout.
    @Test(arguments: TransportUnderTest.all)
    func aTransferThatKeepsMovingOutlastsTheDefaultTimeout(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let started = ContinuousClock.now
                // 8 chunks 2.4 s apart, 19.2 s in all, under a 10 s timeout: wide gaps, so that a loaded machine
                // (the suite runs in parallel on two cores) pausing either side for seconds does not look like a stall.
                let request = TransportRequest(
                    urlRequest: try server.request("/dribble/8000?ms=19200", timeout: 10))
                let response = try await sut.send(request)
                #expect(response.status == 200)
                #expect(response.body.data == Pattern.bytes(offset: 0, count: 8000))
                #expect(
                    ContinuousClock.now - started > .seconds(10), "the body took longer than the timeout")
            }
        }
    }

    /// An explicit total deadline still bounds a transfer that keeps moving, across redirects.
    @Test(arguments: TransportUnderTest.all)
    func anExplicitTotalDeadlineStillApplies(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = TransportRequest(
                    urlRequest: try server.request("/redirect-to?url=/dribble/8000%3Fms%3D3200&status=307"),
                    options: TransferOptions(idleTimeout: .seconds(2), totalTimeout: .seconds(1)))
                let error = await expectCourierError(sut, request)
                #expect(error?.code == .timedOut)
            }
        }
    }
}
