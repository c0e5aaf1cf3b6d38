import Courier
import CourierCache
import CourierPrimitives
import CourierTesting
import Foundation
import MockServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `HTTPCache` over each transport, against a real server: fresh hits never reach it,
/// revalidations get a 304, and bodies served to a file are whole.
@Suite struct HTTPCacheConformanceTests {
    /// `/fresh`: max-age=60. `/validated`: no-cache with an ETag, 304 when it matches.
    /// `/hits` in the query counts what reached the server.
    static func handler(_ hits: Locked<[String]>) -> ClosureHandler {
        ClosureHandler { request in
            hits.withLock {
                $0.append("\(request.method) \(request.path) \(request.headers["If-None-Match"] ?? "-")")
            }
            let body = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0) })
            switch request.path {
            case "/fresh":
                return ServerResponse(
                    headers: ["Cache-Control": "max-age=60", "Content-Type": "application/octet-stream"],
                    body: .data(body))
            case "/validated":
                if request.headers["If-None-Match"] == "\"v1\"" {
                    return ServerResponse(
                        status: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "no-cache"])
                }
                return ServerResponse(
                    headers: [
                        "ETag": "\"v1\"", "Cache-Control": "no-cache",
                        "Content-Type": "application/octet-stream",
                    ],
                    body: .data(body))
            default:
                return ServerResponse(status: 204)
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func hitsAndRevalidationsOverTheWire(transport: TransportUnderTest) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let hits = Locked<[String]>([])
        try await withMockServer(handlers: [Self.handler(hits)]) { server in
            try await transport.with { sut in
                let cache = try HTTPCache(directory: folder)
                let manager = NetworkManager(transport: sut, baseURL: server.baseURL, interceptors: [cache])
                let fresh = server.baseURL.appendingPathComponent("fresh")
                let validated = server.baseURL.appendingPathComponent("validated")
                let first = try await manager.sendRaw(URLRequest(url: fresh))
                let second = try await manager.sendRaw(URLRequest(url: fresh))
                #expect([first.source, second.source] == [.network, .cache])
                #expect(second.value == first.value)
                let download = folder.appendingPathComponent("out.bin")
                let third = try await manager.download(URLRequest(url: validated), to: download)
                let fourth = try await manager.download(URLRequest(url: validated), to: download)
                #expect([third.source, fourth.source] == [.network, .revalidated])
                #expect(try Data(contentsOf: download) == first.value)
                #expect(fourth.status == 200)
                #expect(
                    hits.withLock { $0 } == ["GET /fresh -", "GET /validated -", "GET /validated \"v1\""])
                #expect(cache.statistics.hits == 1)
                #expect(cache.statistics.revalidations == 1)
            }
        }
    }
}
