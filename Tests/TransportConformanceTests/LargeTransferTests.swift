import Courier
import CourierPrimitives
import CourierTesting
import Foundation
import MockServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// 64 MiB each way, streamed from and to disk, with checksums and progress.
@Suite struct LargeTransferTests {
    static let size: Int64 = 64 << 20
    /// As long as the requests' own timeout: a loaded machine may leave the client's consumer (the
    /// file writer) idle long enough that the server's default half minute would close a download.
    static let writeTimeout: Duration = .seconds(120)

    @Test(arguments: TransportUnderTest.all)
    func largeUploadStreamsFromAFileWithProgress(transport: TransportUnderTest) async throws {
        let directory = try TemporaryDirectory()
        let file = try Pattern.writeFile(length: Self.size, in: directory.url)
        let expected = try await Checksum.sha256(file: file)
        let progress = ProgressLog()
        try await withConformanceServer(
            fileDigest: { try? Checksum.sha256(file: $0) }, writeTimeout: Self.writeTimeout
        ) { server in
            try await transport.with { sut in
                let request = try server.request(
                    "/echo/big", method: "PUT", headers: ["Content-Type": "application/octet-stream"],
                    timeout: 120)
                let response = try await sut.send(
                    TransportRequest(urlRequest: request, body: .file(file), progress: progress.record))
                #expect(response.status == 200)
                let echo = try response.echo()
                #expect(echo.bodyLength == Self.size)
                #expect(echo.bodySHA256 == expected)
            }
        }
        let uploads = progress.reports.filter { $0.direction == .upload }
        #expect(!uploads.isEmpty, "upload progress is reported")
        #expect(uploads.last?.completed == Self.size)
        #expect(zip(uploads, uploads.dropFirst()).allSatisfy { $0.completed <= $1.completed }, "monotonic")
    }

    @Test(arguments: TransportUnderTest.all)
    func largeDownloadStreamsToAFileWithProgress(transport: TransportUnderTest) async throws {
        let directory = try TemporaryDirectory()
        let expected = try await Checksum.sha256(
            file: try Pattern.writeFile(length: Self.size, in: directory.url))
        let destination = directory.url.appendingPathComponent("download.bin")
        let progress = ProgressLog()
        try await withConformanceServer(writeTimeout: Self.writeTimeout) { server in
            try await transport.with { sut in
                let request = try server.request("/bytes/\(Self.size)", timeout: 120)
                let response = try await NetworkManager(transport: sut).download(
                    request, to: destination, progress: progress.record)
                #expect(response.status == 200)
                #expect(response.body.file == destination)
                #expect(response.body.byteCount == Self.size)
            }
        }
        #expect(try await Checksum.sha256(file: destination) == expected)
        let downloads = progress.reports.filter { $0.direction == .download }
        #expect(downloads.count > 1, "download progress is reported as bytes arrive")
        #expect(downloads.last?.completed == Self.size)
    }
}

/// Collects progress reports from any thread.
final class ProgressLog: Sendable {
    private let storage = Locked<[TransferProgress]>([])

    var reports: [TransferProgress] { storage.withLock { $0 } }

    var record: @Sendable (TransferProgress) -> Void {
        { progress in self.storage.withLock { $0.append(progress) } }
    }
}
