import Foundation
import MockServer
import TestSupport
import Testing

/// A `bodyFileName` is checked when the mapping is loaded, as every other mapping error is: a file that
/// is missing, or outside the files folder, is a start-up error or a 422, not a 404 at request time
/// that looks like an unmatched route. A name with template tags can only be checked per request.
struct BodyFileTests {
    static let getUser = #"""
        {"name": "Get user", "request": {"method": "GET", "urlPath": "/users/1"},
         "response": {"bodyFileName": "users/1.json"}}
        """#

    @Test func aMissingBodyFileStopsTheStartNamingBothFiles() throws {
        let folder = try MappingFolder(["mappings/users.json": Self.getUser])
        defer { folder.remove() }
        let message = folder.startFailure()
        #expect(message.contains("mappings/users.json"), "\(message)")
        #expect(message.contains("response.bodyFileName"), "\(message)")
        #expect(message.contains("no body file users/1.json"), "\(message)")
    }

    @Test func aPresentBodyFileLoadsAndIsServed() async throws {
        let folder = try MappingFolder([
            "mappings/users.json": Self.getUser, "__files/users/1.json": #"{"id": 1}"#,
        ])
        defer { folder.remove() }
        try await withMockServer(configuration: folder.configuration) { server in
            let response = try perform(server, "/users/1")
            #expect(response.text == #"{"id": 1}"#)
        }
    }

    @Test func theAdminAPIRefusesAMissingBodyFileWith422() async throws {
        let folder = try MappingFolder(["__files/present.json": "here"])
        defer { folder.remove() }
        try await withMockServer(configuration: folder.configuration) { server in
            let missing = #"{"request": {"url": "/a"}, "response": {"bodyFileName": "absent.json"}}"#
            let refused = try perform(server, "POST", "/__admin/mappings", body: missing)
            #expect(refused.status == 422, "\(refused.text)")
            #expect(
                refused.text.contains("mapping.response.bodyFileName: no body file absent.json"),
                "\(refused.text)")
            let imported = try perform(
                server, "POST", "/__admin/mappings/import",
                body: #"{"mappings": [{"request": {"url": "/b"}, "response": {}}, \#(missing)]}"#)
            #expect(imported.status == 422, "\(imported.text)")
            #expect(imported.text.contains("import mappings[1].response.bodyFileName"), "\(imported.text)")
            #expect(server.stubCount == 0)

            let created = try perform(
                server, "POST", "/__admin/mappings",
                body: #"{"request": {"url": "/a"}, "response": {"bodyFileName": "present.json"}}"#)
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(json(created)["id"] as? String)
            #expect(try perform(server, "/a").text == "here")
            let edited = try perform(server, "PUT", "/__admin/mappings/\(id)", body: missing)
            #expect(edited.status == 422, "\(edited.text)")
            #expect(try perform(server, "/a").text == "here")
        }
    }

    @Test func addStubsRefusesAMissingBodyFile() async throws {
        let folder = try MappingFolder([:])
        defer { folder.remove() }
        try await withMockServer(configuration: folder.configuration) { server in
            let error = #expect(throws: MockServerError.self) {
                try server.addStubs(
                    json: Data(
                        #"{"request": {"url": "/a"}, "response": {"bodyFileName": "absent.json"}}"#.utf8))
            }
            #expect(
                error?.message.contains("no body file absent.json") == true, "\(String(describing: error))")
            #expect(server.stubCount == 0)
        }
    }

    /// `..`, an absolute path and a link out of the folder would serve a file the folder does not hold.
    @Test(arguments: [
        ("../secret.txt", "outside the files folder"),
        ("users/../../secret.txt", "outside the files folder"),
        ("/etc/hostname", "relative to the files folder"),
        ("link.txt", "outside the files folder"),
        ("users", "not a regular file"),
    ])
    func aBodyFileOutsideTheFilesFolderIsRefused(name: String, reason: String) async throws {
        let folder = try MappingFolder(["secret.txt": "secret", "__files/users/1.json": "{}"])
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(
            at: folder.root.appendingPathComponent("__files/link.txt"),
            withDestinationURL: folder.root.appendingPathComponent("secret.txt"))
        try await withMockServer(configuration: folder.configuration) { server in
            let refused = try perform(
                server, "POST", "/__admin/mappings",
                body: #"{"request": {"url": "/s"}, "response": {"bodyFileName": "\#(name)"}}"#)
            #expect(refused.status == 422, "\(refused.text)")
            #expect(refused.text.contains(reason), "\(refused.text)")
            #expect(try perform(server, "/s").status == 404)
        }
    }

    /// A templated name is rendered per request, so it is checked then: a rendering that names no file
    /// gets a 500 naming the stub and the file, whether or not the file's contents are templated.
    @Test(arguments: [false, true])
    func aTemplatedBodyFileNameIsCheckedPerRequest(disableBodyFileTemplating: Bool) async throws {
        let folder = try MappingFolder(["__files/user-7.txt": "seven"])
        defer { folder.remove() }
        try await withMockServer(configuration: folder.configuration) { server in
            let created = try perform(
                server, "POST", "/__admin/mappings",
                body: #"""
                    {"name": "user file", "request": {"urlPathPattern": "/users/.*"},
                     "response": {"bodyFileName": "user-{{request.path.[1]}}.txt", "transformers": ["response-template"],
                                  "transformerParameters": {"disableBodyFileTemplating": \#(disableBodyFileTemplating)}}}
                    """#)
            #expect(created.status == 201, "\(created.text)")
            #expect(try perform(server, "/users/7").text == "seven")
            let missing = try perform(server, "/users/8")
            #expect(missing.status == 500, "\(missing.text)")
            #expect(missing.text.contains("\"user file\""), "\(missing.text)")
            #expect(missing.text.contains("no body file user-8.txt"), "\(missing.text)")
            let escaping = try perform(server, "/users/..%2F..%2Fetc%2Fhostname")
            #expect(escaping.status == 500, "\(escaping.text)")
        }
    }

    /// A templated response whose name has no tags is checked when it loads, as a plain one is.
    @Test func aTemplatedResponseWithAPlainBodyFileNameIsCheckedAtLoad() async throws {
        let folder = try MappingFolder([:])
        defer { folder.remove() }
        try await withMockServer(configuration: folder.configuration) { server in
            let refused = try perform(
                server, "POST", "/__admin/mappings",
                body:
                    #"{"request": {"url": "/t"}, "response": {"bodyFileName": "absent.txt", "transformers": ["response-template"]}}"#
            )
            #expect(refused.status == 422, "\(refused.text)")
            #expect(refused.text.contains("no body file absent.txt"), "\(refused.text)")
        }
    }
}
