import Courier
import Endpoints
import Foundation
import MockServer
import SocialBackend
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Video storage in the backend")
struct VideoStorageTests {
    @Test(
        "a large upload is stored whole, served with Range, and owned by its uploader",
        arguments: TestTransport.allCases)
    func largeUpload(kind: TestTransport) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withSocialServer(seed: 1) { server, backend in
            let plain = NetworkManager(transport: kind.make(), baseURL: server.baseURL)
            let ada = try await plain.send(
                OnboardingEndPoint.login(email: "user1@example.com", password: SocialBackend.seedPassword)
            ).value
            let grace = try await plain.send(
                OnboardingEndPoint.login(email: "user2@example.com", password: SocialBackend.seedPassword)
            ).value
            let asAda = NetworkManager(
                transport: kind.make(), baseURL: server.baseURL,
                defaultHeaders: ["Authorization": "Bearer \(ada.token)"])
            let asGrace = NetworkManager(
                transport: kind.make(), baseURL: server.baseURL,
                defaultHeaders: ["Authorization": "Bearer \(grace.token)"])
            let size = 3 << 20
            let file = folder.appendingPathComponent("big.mp4")
            try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13) }).write(to: file)
            let stored = try await asAda.send(
                UploadEndPoint.video(name: "big.mp4", file: file)
            ).value
            #expect(stored.size == Int64(size))
            let onDisk = try FileManager.default.contentsOfDirectory(
                atPath: backend.storageDirectory.appendingPathComponent("videos").path)
            #expect(onDisk.contains { $0.hasSuffix("-big.mp4") }, "the spooled upload was moved into storage")

            var range = URLRequest(url: stored.downloadURL)
            range.setValue("bytes=100-199", forHTTPHeaderField: "Range")
            let partial = try await plain.sendRaw(range)
            #expect(partial.status == 206)
            #expect(partial.value == Data((100..<200).map { UInt8(truncatingIfNeeded: $0 &* 13) }))

            let taken = await #expect(throws: CourierError.self) {
                try await asGrace.sendRaw(UploadEndPoint.video(name: "big.mp4", file: file))
            }
            #expect(taken?.status == 403)
        }
    }
}
