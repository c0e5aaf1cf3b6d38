import Foundation
import MockServer
import TestSupport
import Testing

/// The admin API can add a stub that serves a file: a web page the developer visits must not
/// reach it, by a cross-site `fetch` or by DNS rebinding.
@Suite(.blocksItsThread) struct AdminCrossSiteTests {
    static let mapping = #"{"request": {"url": "/x"}, "response": {"status": 200, "body": "x"}}"#

    /// A GET of the mappings with this `Host` field (`perform` sends its own).
    private func mappings(_ server: MockServer, host: String) throws -> RawResponse {
        let client = try RawClient(port: server.port)
        try client.send("GET /__admin/mappings HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        return try client.readResponse(isHead: false)
    }

    @Test func aWebPageOfAnotherSiteIsRefused() async throws {
        try await withMockServer { server in
            let refused = try perform(
                server, "POST", "/__admin/mappings", headers: [("Origin", "https://evil.example")],
                body: Self.mapping)
            #expect(refused.status == 403)
            #expect(try perform(server, "/x").status == 404, "no stub was added")
            let rebound = try mappings(server, host: "evil.example:\(server.port)")
            #expect(rebound.status == 403)
            let spoofed = try mappings(server, host: "127.evil.example")
            #expect(spoofed.status == 403)
        }
    }

    @Test func localClientsAndLocalPagesAreAnswered() async throws {
        try await withMockServer { server in
            #expect(try perform(server, "POST", "/__admin/mappings", body: Self.mapping).status == 201)
            let local = try perform(
                server, "GET", "/__admin/mappings", headers: [("Origin", "http://localhost:3000")])
            #expect(local.status == 200)
            let byName = try mappings(server, host: "localhost:\(server.port)")
            #expect(byName.status == 200)
            #expect(try perform(server, "/x").status == 200)
        }
    }
}
