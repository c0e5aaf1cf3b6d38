import Courier
import CourierTransportKit
import Foundation
import Synchronization
import Testing

/// `ResponseStream.makeStream`: the public producer a transport written outside the package
/// streams through, with the backpressure Courier's own transports get.
struct ResponseStreamProducerTests {
    private final class Calls: Sendable {
        let resumes = Mutex(0)
        let cancels = Mutex(0)
    }

    @Test func chunksArriveInOrderAndTheEndEndsTheIteration() async throws {
        let (stream, producer) = ResponseStream.makeStream(bufferingUpTo: 1 << 20, onResume: {}, onCancel: {})
        for text in ["a", "", "bc", "def"] { #expect(producer.yield(Data(text.utf8)) == .keepGoing) }
        producer.finish()
        var chunks: [String] = []
        for try await chunk in stream { chunks.append(String(decoding: chunk, as: UTF8.self)) }
        #expect(chunks == ["a", "bc", "def"])
    }

    @Test func aFullBufferSaysPauseAndReadingItDownToHalfResumes() async throws {
        let calls = Calls()
        let (stream, producer) = ResponseStream.makeStream(
            bufferingUpTo: 10, onResume: { calls.resumes.withLock { $0 += 1 } }, onCancel: {})
        let four = Data(repeating: 1, count: 4)
        #expect(producer.yield(four) == .keepGoing)
        #expect(producer.yield(four) == .keepGoing)
        #expect(producer.yield(four) == .pause)  // 12 bytes unread, over 10
        var iterator = stream.makeAsyncIterator()
        _ = try await iterator.next()  // 8 unread: more than half
        #expect(calls.resumes.withLock { $0 } == 0)
        _ = try await iterator.next()  // 4 unread: at most half
        #expect(calls.resumes.withLock { $0 } == 1)
        #expect(producer.yield(four) == .keepGoing)
    }

    @Test func aFailureIsThrownAfterTheQueuedChunks() async throws {
        let (stream, producer) = ResponseStream.makeStream(bufferingUpTo: 100, onResume: {}, onCancel: {})
        _ = producer.yield(Data("kept".utf8))
        producer.finish(throwing: CourierError(.connectionLost, "cut"))
        producer.finish()  // ignored: the stream already ended
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == Data("kept".utf8))
        let error = await #expect(throws: CourierError.self) { _ = try await iterator.next() }
        #expect(error?.code == .connectionLost)
    }

    /// `for try await` over a stream throws `CourierError` itself: this function's typed
    /// `throws(CourierError)` would not compile otherwise, and the caught error needs no cast.
    private static func drain(_ stream: ResponseStream) async throws(CourierError) -> [Data] {
        var chunks: [Data] = []
        for try await chunk in stream { chunks.append(chunk) }
        return chunks
    }

    @Test func iterationThrowsCourierErrorWithoutACast() async {
        let (stream, producer) = ResponseStream.makeStream(bufferingUpTo: 100, onResume: {}, onCancel: {})
        _ = producer.yield(Data("kept".utf8))
        producer.finish(throwing: CourierError(.connectionLost, "cut"))
        do {
            let chunks = try await Self.drain(stream)
            Issue.record("the stream ended without its error after \(chunks.count) chunk(s)")
        } catch {
            #expect(error.code == .connectionLost)
            #expect(error.message == "cut")
        }
    }

    @Test func aCancelledConsumerStopsTheProducerOnce() async throws {
        let calls = Calls()
        let (stream, producer) = ResponseStream.makeStream(
            bufferingUpTo: 100, onResume: {}, onCancel: { calls.cancels.withLock { $0 += 1 } })
        let consumer = Task {
            for try await _ in stream {}
        }
        consumer.cancel()
        let error = await #expect(throws: CourierError.self) { try await consumer.value }
        #expect(error?.code == .cancelled)
        stream.cancel()
        #expect(calls.cancels.withLock { $0 } == 1)
        #expect(producer.yield(Data("late".utf8)) == .stop)
    }
}
