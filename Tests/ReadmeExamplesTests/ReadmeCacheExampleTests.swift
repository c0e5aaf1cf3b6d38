import Courier
import CourierCurl
import CourierPrimitives
import CourierURLSession
import Foundation
import MockServer
import TestSupport
import Testing

/// The README's cookies-and-cache example is ReadmeCacheExample.swift, verbatim; it runs over
/// both transports against a server that needs the session cookie.
@Suite("README cookies and cache example")
struct ReadmeCacheExampleTests {
    @Test func readmeShowsTheCompiledExampleVerbatim() throws {
        #expect(try ReadmeText.showsVerbatim("ReadmeCacheExample.swift"))
    }

    @Test(arguments: ["curl", "urlsession"])
    func exampleRunsOverBothTransports(transport name: String) async throws {
        let profileReads = Locked(0)
        let api = ClosureHandler { request in
            let signedIn = request.headers["Cookie"] == "sid=1"
            switch (request.method, request.path) {
            case ("POST", "/login"):
                var headers: ServerHeaders = ["Location": "/home"]
                headers.add(name: "Set-Cookie", value: "sid=1; Path=/; HttpOnly")
                return ServerResponse(status: 303, headers: headers)
            case ("GET", "/home"):
                return .text(signedIn ? "home" : "sign in first", status: signedIn ? 200 : 401)
            case ("GET", "/profile"):
                guard signedIn else { return .text("sign in first", status: 401) }
                profileReads.withLock { $0 += 1 }
                var response = ServerResponse.text("ann", status: 200)
                response.headers.add(name: "Cache-Control", value: "private, max-age=60")
                return response
            default:
                return nil
            }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-cache-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport: any Transport = name == "curl" ? CurlTransport() : URLSessionTransport()
        let sources = try await withMockServer(handlers: [api]) { server in
            try await signInAndReadProfile(baseURL: server.baseURL, transport: transport, cacheFolder: folder)
        }
        await transport.shutdown()
        #expect(sources == [.network, .cache])
        #expect(profileReads.withLock { $0 } == 1)
    }
}
