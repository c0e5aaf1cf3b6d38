import Courier
import CourierPrimitives
import Dispatch
import Foundation
import MockServer
import TestSupport
import Testing

@testable import CourierCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Races between a caller's cancel and the loop thread, made to happen every time: a
/// `CurlLoopHook` holds the window open instead of hoping the threads line up.
@Suite(.blocksItsThread) struct CurlMultiLoopRaceTests {
    private static let routes = ClosureHandler { request in
        ServerResponse.text("ok \(request.path)", status: 200)
    }

    /// Polls `condition` every 5 ms for up to `seconds`; returns whether it became true.
    private func eventually(within seconds: Double = 45, _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            try await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Transfer A finishes and returns its easy handle; B takes that handle from the pool;
    /// only then does the loop see the remove that a cancel of A asked for (a cancel whose
    /// `stop` won against A's end but whose `remove` came late). The remove must not touch B.
    @Test(.timeLimit(.minutes(1)))
    func aLateRemoveOfAFinishedTransferLeavesTheNextOneOnItsHandleAlone() async throws {
        let finishedFirst = Locked<CurlTransfer?>(nil)
        let queued = Locked<[CurlTransfer]>([])
        let release = DispatchSemaphore(value: 0)
        let held = Locked<Bool?>(nil)
        let hook: CurlLoopHook = { event in
            switch event {
            case .finished(let transfers):
                let first = finishedFirst.withLock { finished in
                    guard finished == nil else { return false }
                    finished = transfers.first
                    return true
                }
                // Hold the loop after it finished A and before it drains its queues again.
                if first { held.withLock { $0 = release.wait(timeout: .now() + 45) == .success } }
            case .queued(let transfer):
                queued.withLock { $0.append(transfer) }
            default:
                break
            }
        }
        try await withMockServer(handlers: [Self.routes]) { server in
            let transport = CurlTransport(loopHook: hook)
            let first = try await transport.send(
                TransportRequest(urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("a"))))
            #expect(first.body.data == Data("ok /a".utf8))
            #expect(try await eventually { finishedFirst.withLock { $0 } != nil })
            let transferA = try #require(finishedFirst.withLock { $0 })

            transport.loop.remove(transferA, reason: .cancelled)  // the late remove
            let second = Locked<Result<TransportResponse, any Error>?>(nil)
            let request = TransportRequest(
                urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("b")))
            Task {
                do {
                    let response = try await transport.send(request)
                    second.withLock { $0 = .success(response) }
                } catch {
                    second.withLock { $0 = .failure(error) }
                }
            }
            #expect(try await eventually { queued.withLock { $0.count } == 2 })
            let transferB = try #require(queued.withLock { $0.last })
            // The pool handed B the handle A returned: the case this test is about.
            #expect(transferB.easy == transferA.easy)
            release.signal()

            let finished = try await eventually { second.withLock { $0 } != nil }
            #expect(held.withLock { $0 } == true, "the hook did not hold the loop open")
            guard finished else {
                // B's continuation is lost: leave its task suspended rather than hang the suite.
                Issue.record("transfer B never finished: the late remove of A took B off the loop")
                await transport.shutdown()
                return
            }
            let response = try #require(try second.withLock { $0 }?.get())
            #expect(response.status == 200)
            #expect(response.body.data == Data("ok /b".utf8))
            await transport.shutdown()
        }
    }

    /// The task is cancelled after `send` started the transfer and before it submitted it, and
    /// the loop drains that cancel's remove before the transfer arrives. The transfer must end
    /// at once with `.cancelled`, not whenever libcurl next calls it back: here it would wait
    /// for a connection (one per host, held by a request the server never answers) and get
    /// no callback until that request ends.
    @Test(.timeLimit(.minutes(1)))
    func aCancelBetweenStartAndSubmitTakesEffectAtOnce() async throws {
        let server = try RawHTTPServer { _ in nil }  // never answers
        defer { server.stop() }
        let drained = DispatchSemaphore(value: 0)
        let held = Locked<Bool?>(nil)
        let armed = Locked(false)
        let hook: CurlLoopHook = { event in
            guard armed.withLock({ $0 }) else { return }
            switch event {
            case .submitting:
                withUnsafeCurrentTask { $0?.cancel() }
                // Submit only after the loop has taken the remove off its queue.
                held.withLock { $0 = drained.wait(timeout: .now() + 45) == .success }
            case .drained:
                drained.signal()
            default:
                break
            }
        }
        let transport = CurlTransport(configuration: .init(maxConnectionsPerHost: 1), loopHook: hook)
        let blocker = Task {
            try await transport.send(
                TransportRequest(urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("held"))))
        }
        #expect(try await eventually { server.requestCount == 1 })
        armed.withLock { $0 = true }

        let outcome = Locked<Result<TransportResponse, any Error>?>(nil)
        let request = TransportRequest(
            urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("x")))
        Task {
            do {
                let response = try await transport.send(request)
                outcome.withLock { $0 = .success(response) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
        }
        let ended = try await eventually(within: 30) { outcome.withLock { $0 } != nil }
        #expect(held.withLock { $0 } == true, "the hook did not hold the window open")
        #expect(ended, "the cancelled transfer was still running 30 s after its cancel")
        if ended {
            let result = try #require(outcome.withLock { $0 })
            guard case .failure(let error as CourierError) = result else {
                Issue.record("expected .cancelled, got \(result)")
                return
            }
            #expect(error.code == .cancelled)
        }
        #expect(server.requestCount == 1, "the cancelled request reached the server")
        blocker.cancel()
        _ = await blocker.result
        await transport.shutdown()
    }
}
