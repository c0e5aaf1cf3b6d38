import Courier
import Endpoints
import Foundation
import Testing

@testable import MockServer

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
}
