import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TransportConformance {
    /// Every way a transfer can fail surfaces as the same `CourierError` code.
    static let failureChecks: [Check] = [
        Check("failures.aSlowServerTimesOut") { c in
            let request = TransportRequest(
                urlRequest: try c.request("/delay/3000", timeout: 0.5),
                options: TransferOptions(totalTimeout: .seconds(0.5)))
            await c.expectError(request, code: .timedOut, "a 3 s answer under a 0.5 s timeout")
        },
        Check("failures.aClosedPortRefusesTheConnection") { c in
            try await LoopbackPort.withRefusingPort { port in
                guard let url = URL(string: "http://127.0.0.1:\(port)/nothing") else { return }
                await c.expectError(
                    TransportRequest(urlRequest: URLRequest(url: url)), code: .cannotConnect, "closed port")
            }
        },
        Check("failures.aServerClosingMidBodyLosesTheConnection") { c in
            await c.expectError(
                TransportRequest(urlRequest: try c.request("/truncated/200000")), code: .connectionLost,
                "a body cut in half")
        },
        Check("failures.cancellingTheTaskCancelsTheTransfer") { c in
            let request = TransportRequest(urlRequest: try c.request("/delay/10000"))
            let transport = c.transport
            let task = Task { try await transport.send(request) }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            await c.expectError(code: .cancelled, "a cancelled transfer") {
                "status \(try await task.value.status)"
            }
            try await c.expectStillWorks()
        },
        Check("failures.aTaskCancelledBeforeSendingNeverSends") { c in
            let path = c.uniquePath("/echo/never")
            let request = TransportRequest(urlRequest: try c.request(path))
            let transport = c.transport
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await transport.send(request)
            }
            await c.expectError(code: .cancelled, "a task cancelled before sending") {
                "status \(try await task.value.status)"
            }
            try await c.expectStillWorks()
            c.expectEqual(c.received(path).count, 0, "requests that reached the server")
        },
        Check("failures.aDeclaredLengthOverTheLimitIsRefused") { c in
            let request = TransportRequest(
                urlRequest: try c.request("/bytes/1000000"), options: TransferOptions(maxResponseBytes: 1000))
            await c.expectError(request, code: .responseTooLarge, "1 MB over a 1000-byte limit")
        },
        Check("failures.aChunkedBodyGrowingOverTheLimitIsAborted") { c in
            let request = TransportRequest(
                urlRequest: try c.request("/chunked/100000"), options: TransferOptions(maxResponseBytes: 1000)
            )
            await c.expectError(request, code: .responseTooLarge, "100 kB chunked over a 1000-byte limit")
        },
        Check("failures.aBodyAtTheLimitIsAccepted") { c in
            let request = TransportRequest(
                urlRequest: try c.request("/chunked/1000"), options: TransferOptions(maxResponseBytes: 1000))
            let response = try await c.send(request)
            c.expectEqual(response.body.data, Pattern.bytes(offset: 0, count: 1000), "body")
        },
        Check("failures.anUnwritableDestinationFailsBeforeSending") { c in
            let destination = URL(fileURLWithPath: "/nonexistent-dir-\(UUID())/out.bin")
            let path = c.uniquePath("/echo/unwritable")
            let request = try c.request(path)
            await c.expectError(code: .fileWriteFailed, "a download to a file in a missing folder") {
                "status \(try await c.manager().download(request, to: destination).status)"
            }
            try await c.expectStillWorks()
            c.expectEqual(c.received(path).count, 0, "requests that reached the server")
        },
        Check("failures.aRequestWithNoAnswerLeavesAnExistingFileAlone") { c in
            let destination = FileManager.default.temporaryDirectory
                .appendingPathComponent("courier-keep-\(UUID()).bin")
            let original = Data("what the user had before".utf8)
            try original.write(to: destination)
            defer { try? FileManager.default.removeItem(at: destination) }
            try await LoopbackPort.withRefusingPort { port in
                guard let url = URL(string: "http://127.0.0.1:\(port)/nothing") else { return }
                await c.expectError(code: .cannotConnect, "a download from a closed port") {
                    "status \(try await c.manager().download(URLRequest(url: url), to: destination).status)"
                }
            }
            c.expectEqual(
                try? Data(contentsOf: destination), original, "the file, after a request that got no answer")
        },
        Check("failures.aBodyCutShortLeavesNoPartialFile") { c in
            let destination = FileManager.default.temporaryDirectory
                .appendingPathComponent("courier-cut-\(UUID()).bin")
            defer { try? FileManager.default.removeItem(at: destination) }
            let request = try c.request("/truncated/200000")
            await c.expectError(code: .connectionLost, "a body cut in half, downloaded to a file") {
                "status \(try await c.manager().download(request, to: destination).status)"
            }
            c.expect(
                !FileManager.default.fileExists(atPath: destination.path),
                "a partial body was left in \(destination.path)")
        },
        Check("limits.aHeadAnnouncingMoreThanTheLimitSucceeds") { c in
            let request = TransportRequest(
                urlRequest: try c.request("/bytes/50000000", method: "HEAD"),
                options: TransferOptions(maxResponseBytes: 1_000))
            let response = try await c.send(request)
            c.expectEqual(response.status, 200, "status")
            c.expectEqual(response.headers["Content-Length"], "50000000", "Content-Length")
        },
        Check("limits.aStallLongerThanTheIdleTimeoutFails") { c in
            // The request's own timeout is far beyond the stall, so only the idle timeout can end it
            // with .timedOut: a transport that ignores it gets the answer after 90 s instead. No
            // wall-clock bound, which on a busy machine would measure the machine.
            let request = TransportRequest(
                urlRequest: try c.request("/delay/90000", timeout: 600),
                options: TransferOptions(idleTimeout: .seconds(1)))
            await c.expectError(request, code: .timedOut, "a 90 s stall under a 1 s idle timeout")
        },
    ]
}
