import Testing

@testable import CourierCurl

@Suite struct OriginQueueTests {
    /// "As many connections as you like" spelled `.max` overflowed `connections * 100` for an
    /// HTTP/2 origin, on the loop thread, for every https request.
    @Test func anUnboundedConnectionCountHasNoOverflow() {
        let queue = OriginQueue(multiplexed: true)
        #expect(queue.limit(.max) == .max)
        #expect(queue.limit(Int.max / 50) == .max)
        #expect(queue.limit(8) == 800)
        #expect(queue.limit(0) == .max)
        #expect(OriginQueue(multiplexed: false).limit(.max) == .max)
        #expect(OriginQueue(multiplexed: false).limit(8) == 8)
    }
}
