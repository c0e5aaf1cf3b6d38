import Courier
import Foundation
import Testing

@testable import CourierURLSession

/// The continuation stand-in: a tag the machine hands back when it must be resumed.
private typealias Machine = URLSessionTransferMachine<String>

private func head(status: Int = 200, length: Int64? = nil) throws -> Machine.Head {
    Machine.Head(
        status: status, headers: ["Content-Type": "text/plain"], url: try #require(URL(string: "http://h/x")),
        expectedLength: length)
}

@Suite struct URLSessionTransferMachineTests {
    @Test func aTransferStartsReceivesAndCompletesOnce() throws {
        var machine = Machine(isStreamed: false, maxResponseBytes: 100)
        guard case .resumeTask = machine.start("c1", shutDown: CourierError(.cancelled, "shut down")) else {
            Issue.record("a fresh transfer must resume its task")
            return
        }
        #expect(machine.receive(try head(length: 5), at: 0.25))
        guard case .progress(let progress) = machine.receive(Data("hello".utf8)) else {
            Issue.record("bytes in memory report progress")
            return
        }
        #expect(progress.completed == 5 && progress.total == 5)
        let completion = machine.complete(taskError: nil)
        #expect(completion.continuation == "c1")
        let (received, body, count, firstByte) = try completion.outcome.get()
        #expect(received.status == 200)
        #expect(body == Data("hello".utf8) && count == 5 && firstByte == 0.25)
        #expect(machine.complete(taskError: nil).continuation == nil, "resumed twice")
        #expect(machine.fail(CourierError(.timedOut, "late")) == .none)
    }

    @Test func aFailureBeforeStartFailsTheStartWithIt() throws {
        var machine = Machine(isStreamed: false, maxResponseBytes: 100)
        #expect(machine.fail(CourierError(.cancelled, "cancelled early")) == .cancelAfterCallbacks)
        guard
            case .fail(let continuation, let error) = machine.start("c1", shutDown: CourierError(.tls, "no"))
        else {
            Issue.record("a failed transfer must not resume its task")
            return
        }
        #expect(continuation == "c1" && error.message == "cancelled early")
    }

    @Test func aTaskThatEndedBeforeStartFailsTheStartAsAShutdown() throws {
        var machine = Machine(isStreamed: false, maxResponseBytes: 100)
        let completion = machine.complete(taskError: CourierError(.cancelled, "task cancelled"))
        #expect(completion.continuation == nil, "nobody waited yet")
        guard case .fail(_, let error) = machine.start("c1", shutDown: CourierError(.cancelled, "shut down"))
        else {
            Issue.record("the start must fail, not resume a task that ended")
            return
        }
        #expect(error.message == "shut down")
        var failed = Machine(isStreamed: false, maxResponseBytes: 100)
        _ = failed.fail(CourierError(.timedOut, "timed out first"))
        _ = failed.complete(taskError: nil)
        guard
            case .fail(_, let recorded) = failed.start("c2", shutDown: CourierError(.cancelled, "shut down"))
        else {
            Issue.record("the start must fail after the end")
            return
        }
        #expect(recorded.message == "timed out first", "a recorded failure explains it better")
    }

    @Test func startingTwiceIsRefused() {
        var machine = Machine(isStreamed: false, maxResponseBytes: 100)
        _ = machine.start("c1", shutDown: CourierError(.cancelled, "x"))
        guard
            case .fail(let continuation, let error) = machine.start(
                "c2", shutDown: CourierError(.cancelled, "x"))
        else {
            Issue.record("a second start must fail")
            return
        }
        #expect(continuation == "c2" && error.code == .invalidConfiguration)
    }

    @Test func theFirstFailureWinsOverTheTasksOwnError() throws {
        var machine = Machine(isStreamed: false, maxResponseBytes: 100)
        _ = machine.start("c1", shutDown: CourierError(.cancelled, "x"))
        #expect(machine.fail(CourierError(.timedOut, "took too long")) == .cancelAfterCallbacks)
        #expect(machine.fail(CourierError(.cancelled, "cancelled after")) == .none)
        #expect(!machine.answersRedirect, "a transfer being cancelled answers no redirect")
        #expect(!machine.receive(try head(), at: 1), "a head after the failure is refused")
        guard case .ignore = machine.receive(Data("late".utf8)) else {
            Issue.record("bytes after the failure are dropped")
            return
        }
        let completion = machine.complete(taskError: CourierError(.cancelled, "URLError cancelled"))
        #expect(completion.continuation == "c1")
        #expect(throws: CourierError.self) { try completion.outcome.get() }
        if case .failure(let error) = completion.outcome { #expect(error.code == .timedOut) }
    }

    @Test func aBodyPastTheLimitFailsInMemory() throws {
        var machine = Machine(isStreamed: false, maxResponseBytes: 4)
        _ = machine.start("c1", shutDown: CourierError(.cancelled, "x"))
        #expect(machine.receive(try head(status: 201), at: 0))
        guard case .progress = machine.receive(Data("abcd".utf8)) else {
            Issue.record("four bytes fit")
            return
        }
        guard case .fail(let error) = machine.receive(Data("e".utf8)) else {
            Issue.record("the fifth byte is past the limit")
            return
        }
        #expect(error.code == .responseTooLarge && error.status == 201)
    }

    @Test func aStreamedTransferHandsItsHeadOutAndIsThenCancelledAtOnce() throws {
        var machine = Machine(isStreamed: true, maxResponseBytes: 1)
        _ = machine.start("c1", shutDown: CourierError(.cancelled, "x"))
        #expect(machine.receive(try head(), at: 0))
        #expect(machine.takeContinuationForHead() == "c1")
        #expect(machine.takeContinuationForHead() == nil, "the head goes out once")
        guard case .progress = machine.receive(Data(repeating: 0, count: 10)) else {
            Issue.record("a stream has no memory limit here: its buffer bounds it")
            return
        }
        #expect(machine.fail(CourierError(.cancelled, "consumer left")) == .cancelNow)
        let completion = machine.complete(taskError: nil)
        #expect(completion.continuation == nil, "the caller already has the head")
    }

    @Test func anEndWithNoHeadIsALostConnection() {
        var machine = Machine(isStreamed: false, maxResponseBytes: 1)
        _ = machine.start("c1", shutDown: CourierError(.cancelled, "x"))
        let completion = machine.complete(taskError: nil)
        #expect(completion.continuation == "c1")
        if case .failure(let error) = completion.outcome {
            #expect(error.code == .connectionLost)
        } else {
            Issue.record("no head is not a response")
        }
    }
}
