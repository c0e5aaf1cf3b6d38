import Courier
import CourierPrimitives
import CourierTesting
import Foundation
import MockServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Transport.stream` and `NetworkManager.stream`: bodies read as they arrive, with
/// backpressure, over both socket transports.
@Suite struct StreamingTests {
    @Test(arguments: TransportUnderTest.all)
    func streamsAChunkedBodyAsItArrives(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let streamed = try await sut.stream(
                    TransportRequest(urlRequest: try server.request("/chunked/300000")))
                #expect(streamed.head.status == 200)
                #expect(streamed.head.headers["Content-Type"] == "application/octet-stream")
                var body = Data()
                var chunks = 0
                for try await chunk in streamed.body {
                    #expect(!chunk.isEmpty)
                    body.append(chunk)
                    chunks += 1
                }
                #expect(body == Pattern.bytes(offset: 0, count: 300_000))
                #expect(chunks > 1, "the body came in more than one chunk")
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func followsRedirectsAndStreamsTheFinalBody(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = try server.request("/redirect-to?url=/bytes/5000&status=302")
                let streamed = try await sut.stream(TransportRequest(urlRequest: request))
                #expect(streamed.head.status == 200)
                #expect(streamed.head.url?.path == "/bytes/5000")
                #expect(
                    try await streamed.body.collect(upTo: 1 << 20) == Pattern.bytes(offset: 0, count: 5000))
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aConnectionCutMidBodyFailsTheIteration(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let streamed = try await sut.stream(
                    TransportRequest(urlRequest: try server.request("/truncated/200000")))
                #expect(streamed.head.status == 200)
                let error = await #expect(throws: CourierError.self) {
                    _ = try await streamed.body.collect(upTo: 1 << 20)
                }
                #expect(error?.category == .transport)
                #expect(error?.code != .cancelled)
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func cancellingTheConsumingTaskClosesTheConnection(transport: TransportUnderTest) async throws {
        let server = try EndlessBodyServer()
        defer { server.stop() }
        try await transport.with { sut in
            var request = TransportRequest(urlRequest: URLRequest(url: server.url))
            // Room enough that URLSessionTransport, which cannot pause on Linux, does not fail
            // first even when a loaded machine starves the consumer for seconds (the server
            // sends at most about 64 MB/s).
            request.options.streamBufferBytes = 256 << 20
            let streamed = try await sut.stream(request)
            #expect(streamed.head.status == 200)
            let received = Locked<Int64>(0)
            let consumer = Task {
                for try await chunk in streamed.body {
                    received.withLock { $0 += Int64(chunk.count) }
                }
            }
            while received.withLock({ $0 }) < 1 << 20 { try await Task.sleep(for: .milliseconds(5)) }
            consumer.cancel()
            let outcome = await consumer.result
            #expect(throws: CourierError.self) { try outcome.get() }
            #expect((try? outcome.get()) == nil)
            if case .failure(let error as CourierError) = outcome { #expect(error.code == .cancelled) }
            let closed = await server.waitForClosed()
            #expect(closed, "the server saw the connection closed: \(server.counts)")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func droppingTheStreamClosesTheConnection(transport: TransportUnderTest) async throws {
        let server = try EndlessBodyServer()
        defer { server.stop() }
        try await transport.with { sut in
            do {
                let streamed = try await sut.stream(TransportRequest(urlRequest: URLRequest(url: server.url)))
                var iterator = streamed.body.makeAsyncIterator()
                for _ in 0..<3 { #expect(try await iterator.next() != nil) }
            }
            // Stream and iterator are gone: the transfer is cancelled, never read to its end.
            let closed = await server.waitForClosed()
            #expect(closed, "the server saw the connection closed: \(server.counts)")
        }
    }

    /// CurlTransport pauses the transfer while the consumer reads nothing, and goes on when
    /// it reads again. URLSessionTransport cannot pause on Linux (FoundationNetworking's
    /// `suspend()` drops the connection): the stream fails with `.responseTooLarge` once the
    /// consumer is 8 × `streamBufferBytes` behind, so memory stays bounded either way.
    @Test(arguments: TransportUnderTest.all)
    func aConsumerThatIsBehindHoldsTheTransferBack(transport: TransportUnderTest) async throws {
        let server = try EndlessBodyServer()
        defer { server.stop() }
        try await transport.with { sut in
            var request = TransportRequest(urlRequest: URLRequest(url: server.url))
            request.options.streamBufferBytes = 256 << 10
            let streamed = try await sut.stream(request)
            var iterator = streamed.body.makeAsyncIterator()
            #expect(try await iterator.next() != nil)
            // Not reading for a while.
            try await Task.sleep(for: .milliseconds(800))
            let sentWhileBehind = server.counts.bytesSent
            try await Task.sleep(for: .milliseconds(400))
            #expect(
                streamed.body.peakBufferedBytes <= 8 * (256 << 10) + (1 << 20),
                "peak buffered \(streamed.body.peakBufferedBytes)")
            if transport.kind == .curl {
                // Only what the socket buffers hold went out.
                #expect(server.counts.bytesSent - sentWhileBehind < 1 << 20, "the server was held back")
                #expect(
                    sentWhileBehind < 32 << 20,
                    "sent \(sentWhileBehind) bytes to a consumer that reads nothing")
                var more: Int64 = 0
                while more < 8 << 20, let chunk = try await iterator.next() { more += Int64(chunk.count) }
                #expect(more >= 8 << 20, "reading again lets the transfer go on")
                #expect(server.counts.connections == 1)
            } else {
                let error = await #expect(throws: CourierError.self) {
                    while try await iterator.next() != nil {}
                }
                #expect(error?.code == .responseTooLarge)
                #expect(await server.waitForClosed(), "the transfer was stopped")
            }
        }
    }

    /// A consumer that sleeps as it reads a large body: the stream's buffer stays within its
    /// bound, and so does the process's resident memory when the test runs alone.
    ///
    /// Other tests run in parallel in the same process, so in a whole-suite run the RSS bound
    /// is checked only when `COURIER_STREAM_MIB` is set (the measurement: run this test alone,
    /// `COURIER_STREAM_TRANSPORT=curl|urlsession` picks one transport); the buffer bound is
    /// always checked. The figures are printed.
    @Test(arguments: StreamingTests.measuredTransports)
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
