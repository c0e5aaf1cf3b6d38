import Courier
import Foundation
import Testing

@testable import CourierURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transfer whose task ended before `start` (a shutdown cancelling every registered task between
/// registering this one and starting it) must still answer its caller.
@Suite(.timeLimit(.minutes(1))) struct URLSessionTransferStartTests {
    @Test func aTaskThatEndedBeforeStartFailsTheCallerInsteadOfHanging() async throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let url = try #require(URL(string: "http://127.0.0.1:1/never"))
        let task = session.dataTask(with: url)
        let queue = OperationQueue()
        let transfer = Transfer(request: TransportRequest(url: url), task: task, delegateQueue: queue)
        // What the delegate does when a shutdown cancels the task before anyone waits for it.
        transfer.complete(URLError(.cancelled))
        let error = await #expect(throws: CourierError.self) {
            try await withCheckedThrowingContinuation { continuation in transfer.start(continuation) }
        }
        #expect(error?.code == .cancelled)
    }
}
