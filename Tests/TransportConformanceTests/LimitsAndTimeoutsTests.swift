import Courier
import Foundation
import MockServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The size limit applies only to a body that will arrive, and the default timeout means "no
/// progress for that long", not "the whole transfer within that long".
@Suite struct LimitsAndTimeoutsTests {
    /// HEAD announces the size of a GET's body without sending it.
    @Test(arguments: TransportUnderTest.all)
    func aHeadAnnouncingMoreThanTheLimitSucceeds(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = TransportRequest(
                    urlRequest: try server.request("/bytes/50000000", method: "HEAD"),
                    options: TransferOptions(maxResponseBytes: 1_000))
                let response = try await sut.send(request)
                #expect(response.status == 200)
                #expect(response.headers["Content-Length"] == "50000000")
                #expect(response.body.data.isEmpty)
                // A GET of the same resource is still refused.
                let get = TransportRequest(
                    urlRequest: try server.request("/bytes/50000000"),
                    options: TransferOptions(maxResponseBytes: 1_000))
                let error = await expectCourierError(sut, get)
                #expect(error?.code == .responseTooLarge)
            }
        }
    }

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
                // 8 chunks 1.2 s apart, 9.6 s in all, under a 5 s timeout: wide gaps, so that a loaded machine
                // pausing the server's writes for a few seconds does not look like a stall.
                let request = TransportRequest(
                    urlRequest: try server.request("/dribble/8000?ms=9600", timeout: 5))
                let response = try await sut.send(request)
                #expect(response.status == 200)
                #expect(response.body.data == Pattern.bytes(offset: 0, count: 8000))
                #expect(
                    ContinuousClock.now - started > .seconds(5), "the body took longer than the timeout")
            }
        }
    }

    /// An explicit idle timeout wins over the request's, and a stall longer than it fails with
    /// the idle timeout's own error, long before the server would answer.
    @Test(arguments: TransportUnderTest.all)
    func aStallLongerThanTheIdleTimeoutFails(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = TransportRequest(
                    urlRequest: try server.request("/delay/60000", timeout: 60),
                    options: TransferOptions(idleTimeout: .seconds(1)))
                let started = ContinuousClock.now
                let error = await expectCourierError(sut, request)
                #expect(error?.code == .timedOut)
                #expect(error?.message.contains("idle timeout") == true, "\(String(describing: error))")
                // A sanitizer build runs several times slower; the 60 s stall is what the bound guards against.
                let bound: Duration =
                    ProcessInfo.processInfo.environment["COURIER_SANITIZER"] == nil
                    ? .seconds(20) : .seconds(50)
                #expect(ContinuousClock.now - started < bound, "the idle timeout did not fire")
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
