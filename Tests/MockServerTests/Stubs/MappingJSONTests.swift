import Foundation
import MockServer
import TestSupport
import Testing

/// Mapping files and admin bodies are JSON to the letter, as WireMock reads them: a fault is reported
/// with its line and column, and what JSON5 allows is refused.
struct MappingJSONTests {
    @Test(arguments: [
        (
            "{\n  \"request\": { \"url\": \"/a\" }\n  \"response\": {}\n}", "line 3, column 3",
            "expected , or }"
        ),
        (
            "{\n  \"request\": { \"url\": \"/a\", },\n  \"response\": {}\n}", "line 2, column 27",
            "trailing comma"
        ),
        ("{\"mappings\": [{\"request\": {\"url\": \"/a\"}},]}", "line 1, column 41", "trailing comma"),
        ("// users\n{\"request\": {\"url\": \"/a\"}}", "line 1, column 1", "comment"),
        ("{\"request\": {\"url\": '/a'}}", "line 1, column 21", "single-quoted"),
        ("{request: {\"url\": \"/a\"}}", "line 1, column 2", "unquoted key"),
        ("{\"request\": {\"url\": \"/a\"}, \"priority\": 01}", "line 1, column 40", "leading zero"),
        ("{\"request\": {\"url\": \"/a\"}, \"priority\": NaN}", "line 1, column 40", "NaN"),
        ("{\"request\": {\"url\": \"/a\"}", "line 1, column 26", "ends inside an object"),
    ])
    func aMalformedMappingFileStopsTheStartWithItsPosition(json: String, position: String, reason: String)
        throws
    {
        let folder = try MappingFolder(["mappings/users.json": json])
        defer { folder.remove() }
        let message = folder.startFailure()
        #expect(message.contains("mappings/users.json: malformed JSON at \(position)"), "\(message)")
        #expect(message.contains(reason), "\(message)")
        #expect(!message.contains("DecodingError"), "\(message)")
    }

    /// A mappings folder that is not there (a mistyped path) stops the start, naming the path,
    /// instead of serving no stubs; so does a file given as the folder.
    @Test func aMissingMappingsFolderStopsTheStart() throws {
        let folder = try MappingFolder([:])
        defer { folder.remove() }
        var missing = folder
        missing.root = folder.root.appendingPathComponent("no-such-folder")
        #expect(missing.startFailure().contains("there is no mappings folder at \(missing.root.path)"))
        let file = folder.root.appendingPathComponent("stub.json")
        try Data("{}".utf8).write(to: file)
        var notAFolder = folder
        notAFolder.root = file
        #expect(notAFolder.startFailure().contains("\(file.path) is a file, not a mappings folder"))
    }

    @Test(arguments: [
        (#"{"request": {"url": "/a"}, "response": {"body": "x"},}"#, "line 1, column 53", "trailing comma"),
        (#"{"request": {"url": "/a"}} /* done */"#, "line 1, column 28", "comment"),
    ])
    func theAdminAPIRefusesMalformedJSONWithItsPosition(body: String, position: String, reason: String)
        async throws
    {
        try await withMockServer { server in
            for route in ["/__admin/mappings", "/__admin/mappings/import"] {
                let refused = try perform(server, "POST", route, body: body)
                #expect(refused.status == 400, "\(route): \(refused.text)")
                #expect(refused.text.contains("malformed JSON at \(position)"), "\(route): \(refused.text)")
                #expect(refused.text.contains(reason), "\(route): \(refused.text)")
            }
            #expect(server.stubCount == 0)
        }
    }

    @Test func addStubsRefusesMalformedJSONWithItsPosition() async throws {
        try await withMockServer { server in
            let error = #expect(throws: MockServerError.self) {
                try server.addStubs(json: Data(#"{"request": {"url": "/a",}}"#.utf8))
            }
            #expect(
                error?.message.contains("malformed JSON at line 1, column 25") == true,
                "\(String(describing: error))")
        }
    }
}
