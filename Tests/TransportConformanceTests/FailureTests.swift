import Courier
import Foundation
import MockServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every way a transfer can fail surfaces as the same `CourierError` code.
@Suite struct FailureTests {
    @Test(arguments: TransportUnderTest.all)
    func aSlowServerTimesOut(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = TransportRequest(
                    urlRequest: try server.request("/delay/3000", timeout: 0.5),
                    options: TransferOptions(totalTimeout: .seconds(0.5)))
                let error = await expectCourierError(sut, request)
                #expect(error?.code == .timedOut)
                #expect(error?.category == .transport)
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aClosedPortRefusesTheConnection(transport: TransportUnderTest) async throws {
        try await LoopbackPort.withRefusingPort { port in
            try await transport.with { sut in
                let url = try #require(URL(string: "http://127.0.0.1:\(port)/nothing"))
                let error = await expectCourierError(sut, TransportRequest(urlRequest: URLRequest(url: url)))
                #expect(error?.code == .cannotConnect)
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aServerClosingMidBodyLosesTheConnection(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let error = await expectCourierError(
                    sut, TransportRequest(urlRequest: try server.request("/truncated/200000")))
                #expect(error?.code == .connectionLost)
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func cancellingTheTaskCancelsTheTransfer(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = TransportRequest(urlRequest: try server.request("/delay/10000"))
                let task = Task { try await sut.send(request) }
                try await Task.sleep(for: .milliseconds(200))
                task.cancel()
                let result = await task.result
                #expect(throws: CourierError.self) { try result.get() }
                if case .failure(let error as CourierError) = result { #expect(error.code == .cancelled) }
                // The transport still works afterwards.
                let after = try await sut.send(
                    TransportRequest(urlRequest: try server.request("/status/200")))
                #expect(after.status == 200)
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aTaskCancelledBeforeSendingNeverSends(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = TransportRequest(urlRequest: try server.request("/echo/never"))
                let task = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await sut.send(request)
                }
                let result = await task.result
                if case .failure(let error as CourierError) = result {
                    #expect(error.code == .cancelled)
                } else {
                    Issue.record("expected .cancelled, got \(result)")
                }
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aDeclaredLengthOverTheLimitIsRefused(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = TransportRequest(
                    urlRequest: try server.request("/bytes/1000000"),
                    options: TransferOptions(maxResponseBytes: 1000))
                let error = await expectCourierError(sut, request)
                #expect(error?.code == .responseTooLarge)
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aChunkedBodyGrowingOverTheLimitIsAborted(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = TransportRequest(
                    urlRequest: try server.request("/chunked/100000"),
                    options: TransferOptions(maxResponseBytes: 1000))
                let error = await expectCourierError(sut, request)
                #expect(error?.code == .responseTooLarge)
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aBodyAtTheLimitIsAccepted(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let request = TransportRequest(
                    urlRequest: try server.request("/chunked/1000"),
                    options: TransferOptions(maxResponseBytes: 1000))
                let response = try await sut.send(request)
                #expect(response.body.data == Pattern.bytes(offset: 0, count: 1000))
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func anUnwritableDestinationFailsBeforeSending(transport: TransportUnderTest) async throws {
        try await withConformanceServer { server in
            try await transport.with { sut in
                let destination = URL(fileURLWithPath: "/nonexistent-dir-\(UUID())/out.bin")
                let request = TransportRequest(
                    urlRequest: try server.request("/bytes/10"), destination: .file(destination))
                let error = await expectCourierError(sut, request)
                #expect(error?.code == .fileWriteFailed)
            }
        }
    }
}
