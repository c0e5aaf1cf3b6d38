import Courier
import CourierCurl
import CourierTesting
import Foundation
import Synchronization
import Testing

/// The product's conformance suite, run the way a user runs it: over Courier's transports,
/// over a transport written here that wraps another one, and over a broken wrapper that the
/// suite must catch.
@Suite struct TransportConformanceSuiteTests {
    /// One case per transport and check, so a failure names both.
    @Test(arguments: TransportUnderTest.all, TransportConformance.checks)
    func courierTransportsConform(transport: TransportUnderTest, check: TransportConformance.Check) async {
        let report = await TransportConformance.run([check]) { try await transport.make() }
        expectPassed(report, [check.name])
    }

    @Test(arguments: TransportConformance.checks.filter { !$0.needsSocket })
    func stubTransportConformsInMemory(check: TransportConformance.Check) async {
        let report = await TransportConformance.run([check], socket: false) {
            try await TransportUnderTest.stub.make()
        }
        expectPassed(report, [check.name])
    }

    /// The whole suite in one call, through a third-party-style transport wrapping each of ours.
    @Test(arguments: TransportUnderTest.all)
    func aWrappingTransportPassesTheWholeSuite(inner: TransportUnderTest) async {
        let sent = Mutex(0)
        let report = await TransportConformance.run {
            CountingTransport(wrapping: try await inner.make()) { sent.withLock { $0 += 1 } }
        }
        expectPassed(report, TransportConformance.checks.map(\.name))
        #expect(sent.withLock { $0 } >= TransportConformance.checks.count, "the wrapper carried the requests")
    }

    /// The suite can fail: a transport that loses request headers is caught, by name.
    @Test func aTransportThatDropsHeadersFailsTheSuite() async {
        let report = await TransportConformance.run {
            RequestRewritingTransport.droppingHeaders(wrapping: CurlTransport())
        }
        let failed = Set(report.failures.map(\.check))
        #expect(failed.contains("roundTrip.queryAndHeaders"), "\(report)")
        #expect(!failed.contains("roundTrip.status.200IsReturnedNotThrown"), "\(report)")
    }

    /// A feature check can fail too: a transport that loses cookies on the wire (the `Cookie`
    /// header it is given, the `Set-Cookie` fields it receives) fails every cookie check, and
    /// one whose streams end early fails the streaming checks it should.
    @Test func transportsThatBreakAFeatureFailItsChecks() async {
        let cookies = TransportConformance.checks.filter { $0.name.hasPrefix("cookies.") }
        let control = TransportConformance.checks.filter {
            $0.name == "roundTrip.status.200IsReturnedNotThrown"
        }
        #expect(cookies.count == 6)
        let jarless = await TransportConformance.run(cookies + control) {
            CookieLosingTransport(wrapping: CurlTransport())
        }
        #expect(Set(jarless.failures.map(\.check)) == Set(cookies.map(\.name)), "\(jarless)")

        let cut = ["streaming.theBodyArrivesWhole", "streaming.aBodyCutMidWayFailsTheIteration"]
        let streaming = TransportConformance.checks.filter { cut.contains($0.name) }
        let truncated = await TransportConformance.run(streaming + control) {
            StreamTruncatingTransport(wrapping: CurlTransport())
        }
        #expect(Set(truncated.failures.map(\.check)) == Set(cut), "\(truncated)")
    }

    private func expectPassed(
        _ report: TransportConformance.Report, _ names: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(report.checked == names, sourceLocation: sourceLocation)
        for failure in report.failures {
            Issue.record("\(failure)", sourceLocation: sourceLocation)
        }
    }
}

/// A transport from outside Courier: it counts requests and hands them to another transport.
struct CountingTransport: Transport {
    let inner: any Transport
    let onSend: @Sendable () -> Void

    init(wrapping inner: any Transport, onSend: @escaping @Sendable () -> Void) {
        self.inner = inner
        self.onSend = onSend
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        onSend()
        return try await inner.send(request)
    }

    func shutdown() async { await inner.shutdown() }
}

/// A broken transport: it changes every request before another transport sends it.
struct RequestRewritingTransport: Transport {
    let inner: any Transport
    let rewrite: @Sendable (inout TransportRequest) -> Void

    init(wrapping inner: any Transport, rewrite: @escaping @Sendable (inout TransportRequest) -> Void) {
        self.inner = inner
        self.rewrite = rewrite
    }

    /// One that sends every request without its header fields.
    static func droppingHeaders(wrapping inner: any Transport) -> Self {
        Self(wrapping: inner) { $0.headers = HTTPHeaders() }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var rewritten = request
        rewrite(&rewritten)
        return try await inner.send(rewritten)
    }

    func shutdown() async { await inner.shutdown() }
}

/// A broken transport: it sends no `Cookie` header and drops the `Set-Cookie` fields it receives.
struct CookieLosingTransport: Transport {
    let inner: any Transport

    init(wrapping inner: any Transport) { self.inner = inner }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var request = request
        request.headers.remove(name: "Cookie")
        var response = try await inner.send(request)
        response.headers.remove(name: "Set-Cookie")
        return response
    }

    func shutdown() async { await inner.shutdown() }
}

/// A broken transport: its streamed bodies end, without an error, after their first chunk.
struct StreamTruncatingTransport: Transport {
    let inner: any Transport

    init(wrapping inner: any Transport) { self.inner = inner }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var response = try await inner.send(request)
        guard case .stream(let body) = response.body else { return response }
        var iterator = body.makeAsyncIterator()
        let first = try await iterator.next()
        response.body = .stream(ResponseStream(chunks: first.map { [$0] } ?? []))
        return response
    }

    func shutdown() async { await inner.shutdown() }
}
