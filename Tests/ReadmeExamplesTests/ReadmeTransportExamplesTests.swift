import Courier
import CourierCurl
import CourierTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's proxy, testing and executor examples are ReadmeProxyExample.swift,
/// ReadmeTestingExample.swift and ReadmeExecutorExample.swift, verbatim: they compile here (the
/// testing example's tests run with this target), and these tests fail when the README drifts
/// from them.
@Suite(.blocksItsThread) struct ReadmeTransportExamplesTests {
    @Test(arguments: [
        "ReadmeProxyExample.swift", "ReadmeTestingExample.swift", "ReadmeExecutorExample.swift",
    ])
    func readmeShowsTheExampleVerbatim(file: String) throws {
        #expect(try ReadmeText.showsVerbatim(file))
    }

    @Test func theExecutorExampleFetchesEachPost() async throws {
        try await withConformanceServer { server in
            try await CurlTransport.with { transport in
                let echo = server.baseURL.appendingPathComponent("echo")
                let bodies = try await fetchPosts([1, 2, 3], from: echo, over: transport)
                #expect(bodies.count == 3)
                #expect(transport.statistics.transfersCompleted == 3)
            }
        }
    }

    @Test func theProxyExampleSendsThroughTheProxy() async throws {
        let proxy = try RecordingProxy()
        defer { proxy.stop() }
        try await withConformanceServer { server in
            let transport = try officeTransport(
                proxy: proxy.url, pin: "sha256//" + Data(count: 32).base64EncodedString())
            let response = try await transport.send(
                TransportRequest(
                    urlRequest: URLRequest(
                        url: try #require(URL(string: server.baseURL.absoluteString + "/echo/readme")))))
            await transport.shutdown()
            #expect(response.status == 200)
            #expect(proxy.entries.map(\.kind) == [.forward])
        }
    }
}
