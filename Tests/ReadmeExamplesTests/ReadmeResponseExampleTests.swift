import Courier
import CourierCurl
import Foundation
import MockServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's example of what a response and an error carry is ReadmeResponseExample.swift,
/// verbatim: this test runs it against the mock server and fails when the README and the file drift
/// apart.
@Suite("README response example")
struct ReadmeResponseExampleTests {
    @Test func readmeShowsTheCompiledExampleVerbatim() throws {
        #expect(try ReadmeText.showsVerbatim("ReadmeResponseExample.swift"))
    }

    @Test func aResponseAndAnErrorDescribeThemselves() async throws {
        let api = ClosureHandler { request in
            request.path == "/hello" ? .text("hello", status: 200) : .text("no such page", status: 404)
        }
        let (found, missing) = try await withMockServer(handlers: [api]) { server in
            try await CurlTransport.with { transport in
                let manager = NetworkManager(transport: transport, baseURL: server.baseURL)
                func outcome(_ path: String) async -> Result<Response<String>, CourierError> {
                    do throws(CourierError) {
                        return .success(
                            try await manager.send(
                                URLRequest(url: server.baseURL.appendingPathComponent(path)), as: String.self)
                        )
                    } catch {
                        return .failure(error)
                    }
                }
                return (logLine(for: await outcome("hello")), logLine(for: await outcome("missing")))
            }
        }
        #expect(found == "GET /hello: 200, 5 bytes")
        #expect(missing == "GET failed: 404, no such page")
    }
}
