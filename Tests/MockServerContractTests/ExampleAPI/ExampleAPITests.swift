import Courier
import CourierContract
import CourierContractModel
import CourierCurl
import CourierPrimitives
import CourierURLSession
import Foundation
import MockServer
import MockServerContract
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A user's own API gets, from its declaration alone: a typed client, an OpenAPI document that
/// independent tools accept, a stub server that routes and validates, and a contract test.
@Suite(.blocksItsThread, .timeLimit(.minutes(3)))
struct ExampleAPITests {
    static let transports: [String] = ["curl", "urlsession"]

    static func transport(_ name: String) -> any Transport {
        name == "curl" ? CurlTransport() : URLSessionTransport()
    }

    @Test func theReadmeShowsTheExampleAPIVerbatim() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let declaration = try String(
            contentsOf: here.appendingPathComponent("NotesAPI.swift"), encoding: .utf8)
        let readme = try String(
            contentsOf: here.appendingPathComponent("../../../README.md").standardizedFileURL, encoding: .utf8
        )
        #expect(readme.contains("```swift\n" + declaration + "```"))
        #expect(declaration.split(separator: "\n").count < 60, "the example stays small")
    }

    @Test(arguments: transports)
    func theContractTestPassesOverEachTransport(_ name: String) async throws {
        try await withMockServer(handlers: [ContractHandler(NotesAPI.self)]) { server in
            let transport = Self.transport(name)
            let failures = await ContractCheck.run(
                NotesAPI.self, transport: transport, baseURL: server.baseURL,
                headers: ["Authorization": "Bearer t0ken"])
            await transport.shutdown()
            #expect(failures.isEmpty, "\(failures)")
        }
    }

    /// HEAD is answered wherever GET is, and a valid JSON body is valid however large (one over
    /// the server's 1 MiB spill threshold is read back from disk to be validated).
    @Test func headAndLargeJSONBodiesAreServed() async throws {
        try await withMockServer(handlers: [ContractHandler(NotesAPI.self)]) { server in
            let head = try perform(server, "HEAD", "/notes")
            #expect(head.status == 200, "\(head.statusLine)")
            #expect(head.body.isEmpty)
            let padded = #"{"text": "hello"# + "\"" + String(repeating: " ", count: 1_200_000) + "}"
            let created = try perform(
                server, "POST", "/notes",
                headers: [("Content-Type", "application/json"), ("Authorization", "Bearer t0ken")],
                body: padded)
            #expect(created.status == 201, "\(created.text)")
            let deleted = try perform(server, "PUT", "/notes")
            #expect(deleted.status == 405)
            #expect(deleted.headers.first { $0.0 == "Allow" }?.1.contains("GET") == true)
        }
    }

    @Test(arguments: transports)
    func aRequestBreakingTheDeclarationGetsA400ThatSaysWhy(_ name: String) async throws {
        try await withMockServer(handlers: [ContractHandler(NotesAPI.self)]) { server in
            let transport = Self.transport(name)
            let manager = NetworkManager(
                transport: transport, baseURL: server.baseURL,
                defaultHeaders: ["Authorization": "Bearer t0ken"])
            let error = await #expect(throws: CourierError.self) {
                try await manager.send(NotesAPI.create(NewNote(text: "")))
            }
            #expect(error?.status == 400)
            let body = String(decoding: error?.body ?? Data(), as: UTF8.self)
            #expect(body.contains("$.text") && body.contains("shorter than 1 characters"), "\(body)")
            let tooMany = await #expect(throws: CourierError.self) {
                try await manager.send(NotesAPI.list(limit: 99))
            }
            #expect(tooMany?.status == 400)
            await transport.shutdown()
        }
    }

    /// A WireMock stub answers one operation for real, while requests to it are still validated.
    @Test func aStubOverridesOneOperationAndValidationStillApplies() async throws {
        let note =
            #"{"id":"n7","text":"from a stub","pinned":true,"color":"blue","tags":[],"created":"2026-01-01T00:00:00Z"}"#
        let stub = """
            {"request": {"method": "GET", "urlPathPattern": "/notes/.*"},
             "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": \(note.debugDescription)}}
            """
        try await withMockServer(handlers: [ContractHandler(NotesAPI.self)]) { server in
            _ = try server.addStubs(json: Data(stub.utf8))
            let transport = CurlTransport()
            let manager = NetworkManager(transport: transport, baseURL: server.baseURL)
            let stubbed = try await manager.send(NotesAPI.note(id: "n7")).value
            #expect(stubbed.text == "from a stub" && stubbed.pinned)
            let refused = await #expect(throws: CourierError.self) {
                try await manager.sendRaw(
                    URLRequest(url: server.baseURL.appendingPathComponent("notes/bad%20id")))
            }
            #expect(refused?.status == 400, "the stub must not answer a request the declaration refuses")
            let listed = try await manager.sendRaw(NotesAPI.list())
            let schema = try #require(NotesAPI.list().operation.success.schema)
            let value = try JSONValue.parse(listed.value)
            #expect(listed.headers[ServerResponse.exampleAnswerHeader] == "example")
            #expect(
                schema.violations(of: value, at: "response").isEmpty,
                "other operations still answer from examples of their schemas")
            await transport.shutdown()
        }
    }

    /// openapi-spec-validator accepts the document and schemathesis finds nothing wrong with the
    /// stub server (both from PyPI, installed by `scripts/install-deps.sh test`).
    @Test func independentToolsAcceptTheDocumentAndTheServer() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let venv = root.appendingPathComponent(".build/contract-venv/bin")
        let python = venv.appendingPathComponent("python").path
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "no \(python): run scripts/install-deps.sh test (make test does)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("openapi.json")
        try OpenAPIWriter.data(title: "Notes", operations: NotesAPI.operations).write(to: spec)
        let validated = try await Self.run(python, ["-m", "openapi_spec_validator", spec.path], in: folder)
        #expect(validated.status == 0, "\(validated.stdoutText)\(validated.stderrText)")
        try await withMockServer(handlers: [Self.statefulNotes()]) { server in
            let schemathesis = venv.appendingPathComponent("schemathesis").path
            let result = try await Self.run(
                schemathesis,
                [
                    "run", spec.path, "--url", server.baseURL.absoluteString, "--checks", "all",
                    // The stub server takes any bearer token (it cannot know which are valid), so
                    // schemathesis's check that a made-up token is refused does not apply.
                    "--header", "Authorization: Bearer t0ken", "--exclude-checks", "ignored_auth",
                    "--max-examples", "20",
                    "--seed", "1", "--no-color",
                ], in: folder)
            #expect(result.status == 0, "\(result.stdoutText.suffix(3000))\(result.stderrText.suffix(1000))")
        }
    }

    /// The notes API served from an in-memory store: responders for the operations, over the
    /// same routing and validation.
    static func statefulNotes() -> ContractHandler {
        let notes = Locked<[String: Note]>([:])
        let counter = Locked(0)
        let missing = ServerResponse.json(Data(#"{"error":"not_found"}"#.utf8), status: 404)
        return ContractHandler(NotesAPI.self)
            .responding(to: NotesAPI.create(NewNote(text: "")).operation) { call in
                let new =
                    (try? JSONDecoder().decode(NewNote.self, from: JSONEncoder().encode(call.json)))
                    ?? NewNote(text: "?")
                let id = "n\(counter.withLock { $0 += 1; return $0 })"
                let note = Note(
                    id: id, text: new.text, pinned: new.pinned ?? false, color: new.color ?? .yellow,
                    tags: [],
                    created: Date())
                notes.withLock { $0[id] = note }
                return Self.json(note, 201)
            }
            .responding(to: NotesAPI.note(id: "").operation) { call in
                notes.withLock { $0[call.values["id"] ?? ""] }.map { Self.json($0, 200) } ?? missing
            }
            .responding(to: NotesAPI.delete(id: "").operation) { call in
                notes.withLock { $0.removeValue(forKey: call.values["id"] ?? "") } == nil
                    ? missing : ServerResponse(status: 204)
            }
            .responding(to: NotesAPI.list().operation) { _ in
                Self.json(notes.withLock { $0.values.sorted { $0.id > $1.id } }, 200)
            }
    }

    static func json(_ value: some Encodable, _ status: Int) -> ServerResponse {
        ServerResponse.json((try? JSONEncoder.courier.encode(value)) ?? Data(), status: status)
    }

    /// Runs a program in `folder` without blocking Swift's cooperative pool.
    static func run(_ program: String, _ arguments: [String], in folder: URL) async throws
        -> Subprocess.Result
    {
        let quoted = ([program] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        return try await Subprocess.run(
            "/bin/sh", ["-c", "cd '\(folder.path)' && exec " + quoted.joined(separator: " ")], timeout: 150)
    }
}
