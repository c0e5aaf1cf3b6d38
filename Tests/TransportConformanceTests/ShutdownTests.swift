import Courier
import CourierTesting
import Foundation
import MockServer
import Synchronization
import TestSupport
import Testing

/// `Transport.shutdown()` means the same on both transports: what is in flight ends with
/// `.cancelled` (a plain send and a stream alike), a later send fails with `.cancelled` without
/// reaching the server, and a second shutdown does nothing.
@Suite(.timeLimit(.minutes(1)))
struct ShutdownTests {
    @Test(arguments: TransportUnderTest.all)
    func shutdownEndsTransfersInFlightAndRefusesNewOnes(transport kind: TransportUnderTest) async throws {
        let arrived = Mutex(0)
        let handler = ClosureHandler { request in
            if request.path.hasPrefix("/slow") {
                arrived.withLock { $0 += 1 }
                // Held far longer than the test: only the shutdown can end these.
                return ServerResponse(status: 200, body: .data(Data("late".utf8)), delay: .seconds(120))
            }
            arrived.withLock { $0 += 1000 }
            return ServerResponse.text("reached the server", status: 200)
        }
        try await withMockServer(handlers: [handler]) { server in
            let transport = try await kind.make()
            let slow = TransportRequest(url: server.baseURL.appendingPathComponent("slow"))
            let sent = Task { try await transport.send(slow) }
            let streamed = Task { try await transport.stream(slow) }
            #expect(await eventually { arrived.withLock { $0 } == 2 })

            await transport.shutdown()
            for (name, result) in [
                ("send", await sent.result.map { _ in () }),
                ("stream", await streamed.result.map { _ in () }),
            ] {
                guard case .failure(let error as CourierError) = result else {
                    Issue.record("\(name): expected .cancelled, got \(result)")
                    continue
                }
                #expect(error.code == .cancelled, "\(name)")
            }

            let later = TransportRequest(url: server.baseURL.appendingPathComponent("later"))
            let refused = try await #require(throws: CourierError.self) { try await transport.send(later) }
            #expect(refused.code == .cancelled)
            #expect(arrived.withLock { $0 } == 2, "a send after the shutdown reached the server")
            await transport.shutdown()  // idempotent
        }
    }
}
