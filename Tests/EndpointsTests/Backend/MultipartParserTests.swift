import Courier
import Endpoints
import Foundation
import Testing

@testable import MockServer
@testable import SocialBackend

@Suite("Multipart parsing in the backend")
struct MultipartParserTests {
    @Test("the file part the client streams is found byte for byte")
    func roundTrip() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mp-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        let bytes = Data([0x0D, 0x0A, 1, 2, 0x2D, 0x2D, 3])
        try bytes.write(to: file)
        let request = try UploadEndPoint.profileImage(file: file).makeRequest(
            baseURL: URL(string: "http://h"))
        guard case .stream(let stream) = request.body else {
            Issue.record("expected a streamed body, got \(request.body)")
            return
        }
        let body = try stream.collect()
        let contentType = try #require(request.urlRequest.value(forHTTPHeaderField: "Content-Type"))
        #expect(MultipartParser.filePart(named: "image", in: body, contentType: contentType) == bytes)
        #expect(MultipartParser.filePart(named: "other", in: body, contentType: contentType) == nil)
        #expect(MultipartParser.filePart(named: "image", in: body, contentType: "multipart/form-data") == nil)
    }

    /// RFC 2046 allows boundaries of 1 to 70 characters. A longer one is refused by both multipart
    /// readers (the backend's and the stub matcher's) instead of being searched for: a 16,000-byte
    /// boundary over a body of dashes was about 10^12 comparisons on a loop thread.
    @Test("a boundary longer than RFC 2046's 70 characters is refused, not searched for")
    func overlongBoundary() {
        let body = Data(repeating: UInt8(ascii: "-"), count: 4 << 20)
        let hostile = "multipart/form-data; boundary=" + String(repeating: "-", count: 16_000) + "x"
        #expect(MultipartParser.file(named: "file", in: body, contentType: hostile) == nil)
        #expect(MultipartPart.parse(contentType: hostile, body: body) == nil)

        let boundary = String(repeating: "b", count: 70)
        let part = Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\nhello\r\n--\(boundary)--\r\n"
                .utf8)
        let contentType = "multipart/form-data; boundary=\(boundary)"
        #expect(
            MultipartParser.file(named: "file", in: part, contentType: contentType)?.data
                == Data("hello".utf8))
        #expect(MultipartPart.parse(contentType: contentType, body: part)?.count == 1)
    }
}
