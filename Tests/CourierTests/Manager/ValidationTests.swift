import Courier
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Validation reads a downloaded body only to put it into an error.
struct ValidationTests {
    /// The "downloaded file" is a named pipe holding a marker. A validation that read the body
    /// would take the marker out of the pipe; the test reads it back afterwards. The pipe's
    /// writer is closed after a second, so a validation that reads cannot block for ever.
    @Test func aSuccessfulDownloadIsNotReadAgain() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("courier-fifo-\(UUID())")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        let reader = open(fifo.path, O_RDONLY | O_NONBLOCK)
        let writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
        #expect(reader >= 0 && writer >= 0)
        defer { close(reader) }
        let marker = Array("MARK".utf8)
        #expect(write(writer, marker, marker.count) == marker.count)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { close(writer) }

        let response = TransportResponse(status: 200, body: .file(fifo, byteCount: 4))
        try Validation.default.validate(
            Response(
                response, sent: TransportRequest(url: URL(string: "https://api.test/v.mp4")!), attempts: 1))

        var buffer = [UInt8](repeating: 0, count: 16)
        let count = read(reader, &buffer, buffer.count)
        #expect(count == marker.count, "validation read the downloaded body")
        #expect(Array(buffer.prefix(max(count, 0))) == marker)
    }

    @Test func aRejectedDownloadCarriesTheStartOfItsBody() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-body-\(UUID())")
        try Data(#"{"error":"gone"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let response = TransportResponse(status: 410, body: .file(file, byteCount: 16))
        let error = #expect(throws: CourierError.self) {
            try Validation.default.validate(
                Response(
                    response, sent: TransportRequest(url: URL(string: "https://api.test/x")!), attempts: 1))
        }
        #expect(error?.body == Data(#"{"error":"gone"}"#.utf8))
    }
}
