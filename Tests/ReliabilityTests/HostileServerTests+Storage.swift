import Courier
import CourierCurl
import Endpoints
import Foundation
import MockServer
import SocialBackend
import Testing

/// Hostile storage names and oversized uploads against the social backend's video storage.
extension HostileServerTests {
    /// A social backend whose storage folder sits alone inside a fresh sandbox folder, so anything written
    /// outside storage shows up as an extra entry in the sandbox.
    struct Sandbox {
        let root: URL
        let storage: URL
        let spill: URL

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent(
                "courier-hostile-\(UUID().uuidString)")
            storage = root.appendingPathComponent("storage")
            spill = root.appendingPathComponent("spill")
            try FileManager.default.createDirectory(at: spill, withIntermediateDirectories: true)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }

        /// Every file under `url`, recursively, relative to the sandbox root.
        func files(under url: URL) -> [String] {
            let enumerator = FileManager.default.enumerator(atPath: url.path)
            var found: [String] = []
            while let next = enumerator?.nextObject() as? String { found.append(next) }
            return found.sorted()
        }

        /// The total size of the files under `url`.
        func bytes(under url: URL) -> Int64 {
            files(under: url).reduce(0) { total, name in
                let path = url.appendingPathComponent(name).path
                let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
                return total + (size?.int64Value ?? 0)
            }
        }
    }

    /// Signs up a fresh user against `server` and returns the bearer token.
    static func signUp(_ server: MockServer) async throws -> String {
        try await CurlTransport.with { transport in
            let client = SocialClient(transport: transport, baseURL: server.baseURL)
            return try await UserRequest(client: client).signup(
                name: "Mallory", email: "mallory-\(UUID().uuidString.prefix(8))@example.com",
                password: "correct horse battery"
            ).token
        }
    }

    static let traversalNames: [String] = [
        "../evil.mp4", "..%2fevil.mp4", "%2e%2e%2fevil.mp4", "%2E%2E%2Fevil.mp4", "..%2f..%2f..%2fevil.mp4",
        "%2e%2e", "..", ".%2e", "%2fetc%2fevil.mp4", "%2Ftmp%2Fevil.mp4", "..%5cevil.mp4", "evil%00.mp4",
        "sub%2fevil.mp4", ".hidden.mp4", "%252e%252e%252fevil.mp4",
    ]

    @Test(arguments: traversalNames)
    func pathTraversalInStorageNameIsRefused(_ name: String) async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let backend = try SocialBackend(storageDirectory: sandbox.storage)
        let configuration = MockServerConfiguration(uploadsDirectory: sandbox.spill)
        try await withMockServer(configuration: configuration, handlers: [backend]) { server in
            let token = try await Self.signUp(server)
            let body = "not really a video"
            let socket = try RawSocket.connect(port: server.port, timeout: 3)
            socket.send(
                "PUT /videos/\(name) HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Type: video/mp4\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            )
            let status = socket.readStatus()
            // A name with a slash in it (raw) cannot match `/videos/{name}`; everything else must be refused
            // by the name rules. Either way nothing is stored.
            let allowed: Set<Int> = name.contains("/") ? [400, 404] : [400]
            #expect(status.map(allowed.contains) == true, "PUT /videos/\(name) answered \(status as Any)")
        }
        #expect(backend.counts.videos == 0)
        #expect(sandbox.files(under: sandbox.storage.appendingPathComponent("videos")).isEmpty)
        let top = try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path).sorted()
        #expect(top == ["spill", "storage"], "written outside storage: \(top)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/evil.mp4"))
        #expect(!FileManager.default.fileExists(atPath: "/etc/evil.mp4"))
    }

    /// The same names through Courier's own endpoint: refused on the client side or by the server, never stored.
    @Test(arguments: ["../evil.mp4", "/etc/evil.mp4", "..", "a/../../evil.mp4"])
    func pathTraversalThroughTheClientIsRefused(_ name: String) async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let backend = try SocialBackend(storageDirectory: sandbox.storage)
        let video = sandbox.root.appendingPathComponent("clip.mp4")
        try Data("video".utf8).write(to: video)
        try await withMockServer(handlers: [backend]) { server in
            try await CurlTransport.with { transport in
                let client = SocialClient(transport: transport, baseURL: server.baseURL)
                try await UserRequest(client: client).signup(
                    name: "M", email: "m@example.com", password: "secret password")
                let error = await #expect(throws: SocialError.self) {
                    try await VideoPostRequest(client: client).uploadVideo(name: name, file: video)
                }
                let status = error?.status ?? error?.underlying?.status
                let refusedLocally = error?.underlying?.category == .invalidRequest
                #expect(refusedLocally || status == 400 || status == 404, "\(name): \(error as Any)")
            }
        }
        #expect(backend.counts.videos == 0)
        let top = try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path).sorted()
        #expect(top == ["clip.mp4", "spill", "storage"])
    }

    @Test func oversizedDeclaredUploadIsRefusedBeforeTheBody() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let backend = try SocialBackend(storageDirectory: sandbox.storage)
        let configuration = MockServerConfiguration(
            maxBodyBytes: 1 << 20, bodySpillThreshold: 64 << 10, uploadsDirectory: sandbox.spill)
        try await withMockServer(configuration: configuration, handlers: [backend]) { server in
            let token = try await Self.signUp(server)
            let socket = try RawSocket.connect(port: server.port, timeout: 3)
            socket.send(
                "PUT /videos/huge.mp4 HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Type: video/mp4\r\nContent-Length: \(10 << 30)\r\n\r\n")
            // The answer comes without a single body byte sent.
            #expect(socket.readStatus() == 413)
            #expect(sandbox.bytes(under: sandbox.spill) == 0)
        }
        #expect(backend.counts.videos == 0)
    }

    @Test func oversizedChunkedUploadIsCutOffWithoutFillingTheDisk() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let backend = try SocialBackend(storageDirectory: sandbox.storage)
        let limit = 1 << 20
        let configuration = MockServerConfiguration(
            maxBodyBytes: Int64(limit), bodySpillThreshold: 64 << 10, uploadsDirectory: sandbox.spill)
        try await withMockServer(configuration: configuration, handlers: [backend]) { server in
            let token = try await Self.signUp(server)
            let socket = try RawSocket.connect(port: server.port, timeout: 3)
            socket.send(
                "PUT /videos/huge.mp4 HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Type: video/mp4\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk =
                Array("10000\r\n".utf8) + [UInt8](repeating: 0x41, count: 0x10000) + Array("\r\n".utf8)
            var sent = 0
            var maxSpill: Int64 = 0
            // Up to 64 chunks of 64 KiB (4 MiB, four times the limit); stop once the server stops reading.
            for _ in 0..<64 {
                guard socket.send(chunk) else { break }
                sent += 0x10000
                maxSpill = max(maxSpill, sandbox.bytes(under: sandbox.spill))
            }
            let (bytes, _) = socket.readAll(limit: 65536)
            #expect(
                RawSocket.status(of: bytes) == 413,
                "after \(sent) bytes the server answered \(RawSocket.status(of: bytes) as Any)")
            #expect(maxSpill <= Int64(limit) + 65536, "the spill folder grew to \(maxSpill) bytes")
        }
        #expect(backend.counts.videos == 0)
        #expect(sandbox.bytes(under: sandbox.spill) == 0, "spilled bodies were left behind")
        #expect(sandbox.files(under: sandbox.storage.appendingPathComponent("videos")).isEmpty)
    }
}
