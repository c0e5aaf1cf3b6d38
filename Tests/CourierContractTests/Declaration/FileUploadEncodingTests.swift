import Courier
import CourierContract
import CourierContractModel
import Foundation
import Testing

/// A file body is sent as its bytes, or as base64 text when the operation takes it so.
struct FileUploadEncodingTests {
    enum ImagesAPI: API {
        static func upload(file: URL, base64: Bool) -> Endpoint<EmptyResponse> {
            endpoint(.put, "/image", "Uploads an image", status: 204) {
                FileUpload(file, contentType: "image/jpeg", accepted: ["image/jpeg"], base64: base64)
            }
        }

        static var samples: [any EndpointDescribing] {
            [upload(file: URL(fileURLWithPath: "/dev/null"), base64: true)]
        }
    }

    @Test func aBase64BodyIsTheFilesBytesAsBase64Text() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "upload-\(UUID().uuidString).jpg")
        try Data([0xFF, 0xD8, 0xFF, 0x00]).write(to: file)
        // allowed: a leftover temporary file is harmless.
        defer { try? FileManager.default.removeItem(at: file) }
        let base = URL(string: "http://127.0.0.1:9")
        let encoded = try ImagesAPI.upload(file: file, base64: true).makeRequest(baseURL: base)
        guard case .data(let text) = encoded.body else {
            Issue.record("not bytes in memory: \(encoded.body)")
            return
        }
        #expect(String(decoding: text, as: UTF8.self) == "/9j/AA==")
        #expect(encoded.headers["Content-Type"] == "image/jpeg")
        let raw = try ImagesAPI.upload(file: file, base64: false).makeRequest(baseURL: base)
        guard case .file(let sent) = raw.body else {
            Issue.record("not the file: \(raw.body)")
            return
        }
        #expect(sent == file)
        let operation = ImagesAPI.upload(file: file, base64: true).operation
        #expect(operation.body == .binary(contentTypes: ["image/jpeg"], base64: true))
        let document = OpenAPIWriter.make(title: "Images", operations: [operation])
        let schema = document["paths"]?["/image"]?["put"]?["requestBody"]?["content"]?["image/jpeg"]?[
            "schema"]
        #expect(schema?["contentEncoding"] == .string("base64"))
    }
}
