import CourierCurl
import CourierTesting
import CourierURLSession
import Foundation

/// Courier's own two transports for the conformance suite and the tests that run over both. They live
/// here, with the tests, so that `CourierTesting` itself needs neither libcurl nor FoundationNetworking's
/// transport.
extension TransportUnderTest {
    /// `CurlTransport`.
    public static let curl = TransportUnderTest(name: "CurlTransport", kind: .curl) { caBundle in
        CurlTransport(configuration: .init(caBundle: caBundle))
    }

    /// `URLSessionTransport`. It has no custom-CA option on Linux; the bundle is ignored.
    public static let urlSession = TransportUnderTest(name: "URLSessionTransport", kind: .urlsession) { _ in
        URLSessionTransport()
    }

    /// Every Courier transport that talks to a real socket.
    public static let all: [TransportUnderTest] = [.curl, .urlSession]

    /// Courier's socket transports plus `StubTransport`.
    public static let allWithStub: [TransportUnderTest] = all + [.stub]
}
