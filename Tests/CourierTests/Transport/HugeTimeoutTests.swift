import Courier
import CourierInterceptors
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A timeout too large to be a `Duration` is read as none given, never a trap.
@Suite struct HugeTimeoutTests {
    @Test(arguments: [TimeInterval.greatestFiniteMagnitude, 1e300, 1e15, .infinity])
    func aHugeTimeoutIntervalIsTheLongestIdleTimeout(seconds: TimeInterval) throws {
        var urlRequest = URLRequest(url: try #require(URL(string: "https://api.test/x")))
        urlRequest.timeoutInterval = seconds
        let request = TransportRequest(urlRequest: urlRequest)
        #expect(request.options.idleTimeout == .seconds(7 * 86_400))
        #expect(CURLRendering.command(for: urlRequest).contains("https://api.test/x"))
    }
}
