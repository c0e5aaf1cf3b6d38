import Foundation
import MockServer
import TestSupport
import Testing

/// A static stub's response head is serialised once and a small body file is kept in memory per event
/// loop; neither may ever serve what the stub or the disk no longer says.
struct CachedResponseTests {
    static let hello = #"""
        {"request": {"method": "GET", "url": "/hello"},
         "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                      "bodyFileName": "hello.json"}}
        """#

    /// Asks often enough that both event loops (connections alternate between them) have the file.
    private func served(_ server: MockServer, _ target: String = "/hello") throws -> [String] {
        try (0..<4).map { _ in try perform(server, target).text }
    }

    @Test func aBodyFileChangedOnDiskIsServedAsItIsNow() async throws {
        let folder = try MappingFolder(["mappings/hello.json": Self.hello, "__files/hello.json": #"{"v":1}"#])
        defer { folder.remove() }
        let file = folder.root.appendingPathComponent("__files/hello.json")
        // A file changed in the last two seconds is read on every request: let it settle, so that it is kept.
        try await Task.sleep(for: .seconds(3))
        try await withMockServer(configuration: folder.configuration) { server in
            #expect(try served(server) == Array(repeating: #"{"v":1}"#, count: 4))

            // Rewritten in place, same size.
            let handle = try FileHandle(forWritingTo: file)
            try handle.write(contentsOf: Data(#"{"v":2}"#.utf8))
            try handle.close()
            #expect(try served(server) == Array(repeating: #"{"v":2}"#, count: 4))

            // Replaced by a rename, same size.
            let other = folder.root.appendingPathComponent("__files/next.json")
            try Data(#"{"v":3}"#.utf8).write(to: other)
            #expect(rename(other.path, file.path) == 0)
            #expect(try served(server) == Array(repeating: #"{"v":3}"#, count: 4))

            // Removed.
            try FileManager.default.removeItem(at: file)
            let statuses = try (0..<4).map { _ in try perform(server, "/hello").status }
            #expect(statuses == [404, 404, 404, 404])
        }
    }

    @Test func aRangeAndAHeadOfACachedFileTakeTheGeneralPath() async throws {
        // Any method, so that HEAD matches the stub too.
        let any = Self.hello.replacingOccurrences(of: #""method": "GET""#, with: #""method": "ANY""#)
        let folder = try MappingFolder(["mappings/hello.json": any, "__files/hello.json": "0123456789"])
        defer { folder.remove() }
        try await Task.sleep(for: .seconds(3))
        try await withMockServer(configuration: folder.configuration) { server in
            _ = try served(server)
            let whole = try perform(server, "/hello")
            #expect(whole.status == 200)
            #expect(whole.header("Accept-Ranges") == "bytes")
            #expect(whole.header("Content-Length") == "10")
            #expect(whole.header("Content-Type") == "application/json")
            #expect(whole.header("Date") != nil)

            let part = try perform(server, "/hello", headers: [("Range", "bytes=2-4")])
            #expect(part.status == 206)
            #expect(part.text == "234")
            #expect(part.header("Content-Range") == "bytes 2-4/10")

            let head = try perform(server, "HEAD", "/hello")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "10")
            #expect(head.body.isEmpty)
        }
    }

    @Test func aReplacedStubServesItsNewResponse() async throws {
        try await withMockServer { server in
            let created = try perform(
                server, "POST", "/__admin/mappings",
                body:
                    #"{"request": {"url": "/s"}, "response": {"status": 201, "body": "first", "headers": {"X-A": "1"}}}"#
            )
            let id = try #require(json(created)["id"] as? String)
            let first = try perform(server, "/s")
            #expect(first.status == 201)
            #expect(first.text == "first")
            #expect(first.header("X-A") == "1")

            let edited = try perform(
                server, "PUT", "/__admin/mappings/\(id)",
                body:
                    #"{"request": {"url": "/s"}, "response": {"status": 202, "body": "second!", "headers": {"X-B": "2"}}}"#
            )
            #expect(edited.status == 200, "\(edited.text)")
            let second = try perform(server, "/s")
            #expect(second.status == 202)
            #expect(second.text == "second!")
            #expect(second.header("X-A") == nil)
            #expect(second.header("X-B") == "2")
            #expect(second.header("Content-Length") == "7")
        }
    }
}
