import Foundation
import Testing

@testable import MockServer

/// The exchanges kept for snapshots are bounded by count and by body bytes; a running recording keeps
/// its own, within a larger budget of its own.
@Suite struct RecorderTests {
    private func exchange(_ path: String, requestBytes: Int, responseBytes: Int) -> Recorder.Exchange {
        Recorder.Exchange(
            request: ServerRequest(method: "POST", target: path, body: Data(count: requestBytes)),
            response: ProxyResponse(status: 200, body: Data(count: responseBytes)))
    }

    @Test func proxiedExchangesAreBoundedByBytes() {
        let recorder = Recorder(limit: 100, byteLimit: 1_000)
        for index in 0..<10 {
            recorder.capture(exchange("/\(index)", requestBytes: 100, responseBytes: 150), recorded: false)
        }
        // 250 bytes each: the newest four fit in 1,000.
        #expect(recorder.proxiedExchanges.map(\.request.path) == ["/6", "/7", "/8", "/9"])
        recorder.capture(exchange("/huge", requestBytes: 2_000, responseBytes: 0), recorded: false)
        #expect(
            recorder.proxiedExchanges.map(\.request.path) == ["/6", "/7", "/8", "/9"], "too large to keep")
    }

    @Test func proxiedExchangesAreBoundedByCount() {
        let recorder = Recorder(limit: 3)
        for index in 0..<5 {
            recorder.capture(exchange("/\(index)", requestBytes: 1, responseBytes: 1), recorded: false)
        }
        #expect(recorder.proxiedExchanges.map(\.request.path) == ["/2", "/3", "/4"])
    }

    @Test func aRecordingKeepsEveryExchangeItWasAskedFor() {
        let recorder = Recorder(limit: 100, byteLimit: 100)
        #expect(recorder.start(RecordSpec()))
        for index in 0..<5 {
            recorder.capture(exchange("/\(index)", requestBytes: 60, responseBytes: 60), recorded: true)
        }
        #expect(recorder.stop()?.exchanges.count == 5)
        #expect(recorder.proxiedExchanges.isEmpty, "each one alone is over the snapshot budget")
    }

    /// A recording is bounded too, by its own larger budget: what does not fit is counted, not kept,
    /// and stopping says how many.
    @Test func aRecordingIsBoundedAndCountsWhatItDropped() {
        let recorder = Recorder(limit: 100, recordingLimit: 3, recordingByteLimit: 1_000)
        #expect(recorder.start(RecordSpec()))
        for index in 0..<5 {
            recorder.capture(exchange("/\(index)", requestBytes: 10, responseBytes: 10), recorded: true)
        }
        recorder.capture(exchange("/huge", requestBytes: 2_000, responseBytes: 0), recorded: true)
        let stopped = recorder.stop()
        #expect(stopped?.exchanges.map(\.request.path) == ["/0", "/1", "/2"])
        #expect(stopped?.dropped == 3)
    }
}
