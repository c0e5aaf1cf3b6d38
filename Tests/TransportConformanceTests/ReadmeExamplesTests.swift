import Courier
import CourierTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's proxy and testing examples are ReadmeProxyExample.swift and
/// ReadmeTestingExample.swift, verbatim: they compile here (the testing example's tests run
/// with this target), and these tests fail when the README drifts from them.
@Suite struct ReadmeExamplesTests {
    @Test(arguments: ["ReadmeProxyExample.swift", "ReadmeTestingExample.swift"])
    func readmeShowsTheExampleVerbatim(file: String) throws {
        #expect(try ReadmeText.showsVerbatim(file))
    }

    @Test func theProxyExampleSendsThroughTheProxy() async throws {
        let proxy = try RecordingProxy()
        defer { proxy.stop() }
        try await withConformanceServer { server in
            let transport = try officeTransport(
                proxy: proxy.url, pin: "sha256//" + Data(count: 32).base64EncodedString())
            let response = try await transport.send(
                TransportRequest(urlRequest: try server.request("/echo/readme")))
            await transport.shutdown()
            #expect(response.status == 200)
            #expect(proxy.entries.map(\.kind) == [.forward])
        }
    }
}
