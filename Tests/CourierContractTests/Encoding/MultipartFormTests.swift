import Courier
import CourierContract
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct MultipartFormTests {
    @Test func framesTextAndDataParts() throws {
        var form = MultipartForm(boundary: "XyZ")
        form.append("hello", name: "title")
        form.append(Data([0, 1, 2]), name: "blob", filename: "a.bin")
        let body = try form.makeBodyStream()
        let expected =
            "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhello\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"blob\"; filename=\"a.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n\u{0}\u{1}\u{2}\r\n--XyZ--\r\n"
        let data = try body.collect()
        #expect(data == Data(expected.utf8))
        #expect(body.length == Int64(data.count))
    }

    @Test func escapesNamesAndFilenames() throws {
        var form = MultipartForm(boundary: "b")
        form.append(Data(), name: "we\"ird\r\nname", filename: "my \"file\".txt")
        let text = String(decoding: try form.makeBodyStream().collect(), as: UTF8.self)
        #expect(
            text.contains(
                "Content-Disposition: form-data; name=\"we%22ird%0D%0Aname\"; filename=\"my %22file%22.txt\"\r\n"
            ))
    }

    @Test func randomBoundariesDiffer() {
        let first = MultipartForm.randomBoundary()
        #expect(first.hasPrefix("courier-") && first.count == 40)
        #expect(first != MultipartForm.randomBoundary())
    }

    @Test func streamsFilePartWithExactLength() throws {
        let directory = try TemporaryDirectory()
        let fileURL = directory.url.appendingPathComponent("video.mp4")
        var content = Data(count: 3 << 20 + 123)
        for index in stride(from: 0, to: content.count, by: 997) { content[index] = UInt8(index % 251) }
        try content.write(to: fileURL)

        var form = MultipartForm(boundary: "BOUND")
        form.append("caption", name: "text")
        form.appendFile(at: fileURL, name: "video")
        var request = TransportRequest(urlRequest: URLRequest(url: URL(string: "https://api.test/upload")!))
        try form.encode(into: &request)

        #expect(
            request.urlRequest.value(forHTTPHeaderField: "Content-Type")
                == "multipart/form-data; boundary=BOUND")
        guard case .stream(let stream) = request.body else {
            Issue.record("a form with a file part must stream")
            return
        }
        var expected = Data(
            ("--BOUND\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\ncaption\r\n"
                + "--BOUND\r\nContent-Disposition: form-data; name=\"video\"; filename=\"video.mp4\"\r\n"
                + "Content-Type: video/mp4\r\n\r\n").utf8)
        expected.append(content)
        expected.append(Data("\r\n--BOUND--\r\n".utf8))
        #expect(stream.length == Int64(expected.count))
        #expect(stream.isReplayable)

        // Read in small chunks: no chunk is larger than asked for, and the bytes match.
        let reader = try stream.makeReader()
        defer { reader.close() }
        var collected = Data()
        var largest = 0
        while true {
            let chunk = try reader.read(upTo: 64 * 1024)
            if chunk.isEmpty { break }
            largest = max(largest, chunk.count)
            collected.append(chunk)
        }
        #expect(largest <= 64 * 1024)
        #expect(collected == expected)
        // Replays give the same bytes.
        #expect(try stream.collect() == expected)
    }

    @Test func missingFileIsInvalidBody() {
        var form = MultipartForm()
        form.appendFile(at: URL(fileURLWithPath: "/nonexistent/courier-file"), name: "f")
        #expect {
            try form.makeBodyStream()
        } throws: { ($0 as? CourierError)?.code == .invalidBody }
    }

    @Test func fileThatShrinksFailsWithInvalidBody() throws {
        let directory = try TemporaryDirectory()
        let fileURL = directory.url.appendingPathComponent("f.bin")
        try Data(count: 1000).write(to: fileURL)
        var form = MultipartForm(boundary: "b")
        form.appendFile(at: fileURL, name: "f")
        let stream = try form.makeBodyStream()
        try Data(count: 10).write(to: fileURL)
        #expect {
            try stream.collect()
        } throws: { ($0 as? CourierError)?.code == .invalidBody }
    }

    @Test(arguments: ["", String(repeating: "a", count: 71), "has space", "ü"])
    func invalidBoundaryIsRefused(boundary: String) {
        let form = MultipartForm(boundary: boundary)
        #expect {
            try form.makeBodyStream()
        } throws: { ($0 as? CourierError)?.code == .invalidParameters }
    }

    @Test func formWithoutFilesIsSentFromMemory() throws {
        var form = MultipartForm(boundary: "b")
        form.append("x", name: "a")
        var request = TransportRequest(urlRequest: URLRequest(url: URL(string: "https://api.test/upload")!))
        try form.encode(into: &request)
        #expect(request.body.dataValue.count == Int(request.body.length ?? -1))
    }
}
