import Courier
import Testing

@testable import CourierCurl

/// The continuation stand-in: a tag the machine hands back when it must be resumed.
private typealias Machine = TransferStateMachine<String>

@Suite struct TransferStateMachineTests {
    @Test func startSubmitsAndFinishResumesOnce() throws {
        var machine = Machine()
        guard case .submit = machine.start("c1") else {
            Issue.record("a fresh transfer must be submitted")
            return
        }
        let first = machine.finish(.success(TransportResponse(status: 204)))
        let (continuation, result) = try #require(first)
        #expect(continuation == "c1")
        #expect(try result.get().status == 204)
        #expect(machine.finish(.success(TransportResponse(status: 200))) == nil, "resumed twice")
        #expect(machine.finish(.failure(CourierError(.timedOut, "late"))) == nil, "resumed twice")
    }

    @Test func cancelBeforeStartFailsTheStartWithoutSubmitting() throws {
        var machine = Machine()
        #expect(machine.stop(.cancelled) == .none)
        guard case .fail(let continuation, let error) = machine.start("c1") else {
            Issue.record("a cancelled transfer must not be submitted")
            return
        }
        #expect(continuation == "c1")
        #expect(error.code == .cancelled)
        #expect(machine.finish(.success(TransportResponse(status: 200))) == nil)
    }

    @Test func cancelWhileRunningAsksTheLoopToRemoveAndReportsCancelled() throws {
        var machine = Machine()
        _ = machine.start("c1")
        #expect(machine.stop(.cancelled) == .removeFromLoop)
        #expect(machine.shouldAbort)
        let finished = machine.finish(.failure(CourierError(.cancelled, "removed")))
        let (_, result) = try #require(finished)
        #expect(throws: CourierError.self) { try result.get() }
        #expect(result.failureCode == .cancelled)
        #expect(machine.stop(.cancelled) == .none, "nothing to remove after finishing")
    }

    @Test func firstAbortReasonWinsAndReplacesLibcurlsCode() throws {
        var machine = Machine()
        _ = machine.start("c1")
        machine.fail(.responseTooLarge(limit: 10, declared: 99))
        _ = machine.stop(.cancelled)
        let libcurl = CourierError(.fileWriteFailed, "Failed writing received data")
        let finished = machine.finish(.failure(libcurl))
        let (_, result) = try #require(finished)
        #expect(result.failureCode == .responseTooLarge)
    }

    @Test(arguments: [
        (TransferAbortReason.cancelled, CourierError.Code.cancelled),
        (.shutdown, .cancelled),
        (.responseTooLarge(limit: 1, declared: nil), .responseTooLarge),
        (.bodyReadFailed("gone"), .invalidBody),
    ])
    func abortReasonsMapToCodes(reason: TransferAbortReason, code: CourierError.Code) {
        #expect(reason.error().code == code)
    }

    @Test func aSuccessAfterALateCancelIsStillDelivered() throws {
        var machine = Machine()
        _ = machine.start("c1")
        _ = machine.stop(.cancelled)
        let finished = machine.finish(.success(TransportResponse(status: 200)))
        let (_, result) = try #require(finished)
        #expect(try result.get().status == 200)
    }

    @Test func startingTwiceFailsTheSecondContinuation() {
        var machine = Machine()
        _ = machine.start("c1")
        guard case .fail(let continuation, _) = machine.start("c2") else {
            Issue.record("the second start must fail")
            return
        }
        #expect(continuation == "c2")
    }
}

extension Result where Failure == CourierError {
    var failureCode: CourierError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
