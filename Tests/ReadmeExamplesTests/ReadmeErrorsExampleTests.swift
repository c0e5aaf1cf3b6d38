import Courier
import CourierCurl
import Foundation
import MockServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's example of a typed `catch` inside a closure is ReadmeErrorsExample.swift, verbatim:
/// this test runs it against the mock server and fails when the README and the file drift apart.
@Suite("README errors example")
struct ReadmeErrorsExampleTests {
    @Test func readmeShowsTheCompiledExampleVerbatim() throws {
        #expect(try ReadmeText.showsVerbatim("ReadmeErrorsExample.swift"))
    }

    @Test func theCatchInsideTheTaskGetsTheCourierError() async throws {
        let api = ClosureHandler { request in
            request.path == "/hello" ? .text("hello", status: 200) : .text("no such page", status: 404)
        }
        let (found, missing) = try await withMockServer(handlers: [api]) { server in
            try await CurlTransport.with { transport in
                let manager = NetworkManager(transport: transport, baseURL: server.baseURL)
                return (await fetchText("/hello", with: manager), await fetchText("/missing", with: manager))
            }
        }
        #expect(found == "hello")
        #expect(missing.hasPrefix("failed (unacceptable status): "), "\(missing)")
    }
}
