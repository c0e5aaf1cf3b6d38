import CourierPrimitives
import CourierTesting
import Foundation
import MockServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// HAR 1.2 both ways: a HAR that mitmproxy wrote (its `hardump` option, in reverse-proxy mode in front
/// of a loopback server) becomes stubs that answer as the server did; an exported HAR imports back to
/// the same stubs, and mitmproxy reads it.
@Suite(.blocksItsThread) struct HARTests {
    /// The contract virtualenv's `mitmdump` (scripts/install-deps.sh test installs mitmproxy there).
    static let mitmdump: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/contract-venv/bin/mitmdump").path
    }()

    static let originStubs = """
        {"mappings": [
          {"request": {"method": "GET", "url": "/notes?tag=work"},
           "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": "[{\\"id\\": \\"n1\\"}]"}},
          {"request": {"method": "POST", "url": "/notes", "bodyPatterns": [{"equalToJson": {"text": "milk"}}]},
           "response": {"status": 201, "headers": {"Content-Type": "application/json", "Location": "/notes/n2"}, "body": "{\\"id\\": \\"n2\\"}"}},
          {"request": {"method": "GET", "url": "/logo"},
           "response": {"status": 200, "headers": {"Content-Type": "image/png"}, "base64Body": "iVBORw0KGgoAAAABAgMEBf8="}}
        ]}
        """

    /// The three exchanges, sent to `base`: status, Location and body of each.
    static func exchanges(_ base: URL) async throws -> [(Int, String?, Data)] {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        var post = URLRequest(url: base.appendingPathComponent("notes"))
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(#"{"text": "milk"}"#.utf8)
        let requests = [
            URLRequest(url: try #require(URL(string: base.absoluteString + "/notes?tag=work"))), post,
            URLRequest(url: base.appendingPathComponent("logo")),
        ]
        var results: [(Int, String?, Data)] = []
        for request in requests {
            let (data, response) = try await session.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            results.append((http.statusCode, http.value(forHTTPHeaderField: "Location"), data))
        }
        return results
    }

    @Test func aHARWrittenByMitmproxyIsImportedAndServed() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.mitmdump),
            "no mitmdump in .build/contract-venv: run scripts/install-deps.sh test")
        let directory = try TemporaryDirectory()
        let har = directory.url.appendingPathComponent("mitmproxy.har")
        let original = try await withMockServer { origin in
            try origin.addStubs(json: Data(Self.originStubs.utf8))
            let port = try LoopbackPort.reserveAndClose()
            let proxy = try Subprocess(
                Self.mitmdump,
                [
                    "--mode", "reverse:\(origin.baseURL.absoluteString)", "--listen-host", "127.0.0.1",
                    "--listen-port", "\(port)", "--set", "hardump=\(har.path)",
                    "--set", "confdir=\(directory.url.appendingPathComponent("mitmproxy").path)",
                ])
            var waited = 0
            while !LoopbackPort.isAccepting(port) && waited < 600 && proxy.isRunning {
                try await Task.sleep(for: .milliseconds(100))
                waited += 1
            }
            let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let results = try await Self.exchanges(base)
            proxy.send(SIGINT)
            let output = proxy.finish(timeout: 60)
            #expect(output.status == 0, "\(output.stderrText)")
            return results
        }
        #expect(original.map(\.0) == [200, 201, 200])
        let written = try Data(contentsOf: har)
        #expect(try JSONValue.parse(written)["log"]?["creator"]?["name"] == .string("mitmproxy"))

        // The origin is gone: the HAR alone answers, over a socket and in process.
        try await withMockServer { server in
            #expect(try server.addStubs(har: written).count == 3)
            let replayed = try await Self.exchanges(server.baseURL)
            #expect(replayed.map(\.0) == original.map(\.0))
            #expect(replayed.map(\.1) == original.map(\.1))
            #expect(replayed.map(\.2) == original.map(\.2))
        }
        try await withURLProtocolMock { mock in
            try mock.addStubs(har: written)
            let configuration = URLSessionConfiguration.ephemeral
            mock.install(into: configuration)
            let session = URLSession(configuration: configuration)
            let (data, _) = try await session.data(from: mock.baseURL.appendingPathComponent("logo"))
            #expect(data == original[2].2)
        }
    }

    @Test func anExportedHARImportsBackToTheSameStubsAndMitmproxyReadsIt() async throws {
        guard case .array(let mappings)? = try JSONValue.parse(Data(Self.originStubs.utf8))["mappings"] else {
            Issue.record("the stubs are not a mapping list")
            return
        }
        let base = try #require(URL(string: "https://api.example.com"))
        let exported = HAR.document(fromMappings: mappings, baseURL: base).serialized(pretty: true)
        let imported = try HAR.mappings(fromHAR: exported)
        #expect(imported == mappings)
        for problem in Self.schemaProblems(try JSONValue.parse(exported)) {
            Issue.record("HAR 1.2: \(problem)")
        }

        try #require(
            FileManager.default.isExecutableFile(atPath: Self.mitmdump),
            "no mitmdump in .build/contract-venv: run scripts/install-deps.sh test")
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("exported.har")
        try exported.write(to: file)
        let read = try await Subprocess.run(
            Self.mitmdump,
            [
                "-n", "-r", file.path, "--set",
                "confdir=\(directory.url.appendingPathComponent("mitmproxy").path)",
            ])
        #expect(read.status == 0, "\(read.stderrText)")
        #expect(read.stdoutText.contains("POST https://api.example.com/notes"), "\(read.stdoutText)")
        #expect(read.stdoutText.contains("<< 201"), "\(read.stdoutText)")
    }

    @Test func theJournalExportsAsHAR() async throws {
        try await withMockServer { server in
            try server.addStubs(json: Data(Self.originStubs.utf8))
            _ = try await Self.exchanges(server.baseURL)
            let exported = server.journalAsHAR()
            for problem in Self.schemaProblems(try JSONValue.parse(exported)) {
                Issue.record("HAR 1.2: \(problem)")
            }
            let imported = try HAR.mappings(fromHAR: exported)
            #expect(
                imported.map { $0["request"]?["url"] } == [
                    .string("/notes?tag=work"), .string("/notes"), .string("/logo"),
                ])
            #expect(imported.map { $0["response"]?["status"] } == [.int(200), .int(201), .int(200)])
            #expect(
                imported[1]["request"]?["bodyPatterns"]
                    == .array([.object(["equalToJson": .object(["text": .string("milk")])])]))
        }
    }

    @Test func aFileThatIsNotHARIsRefusedNamingTheEntry() throws {
        #expect(throws: HARError.self) { try HAR.mappings(fromHAR: Data("[]".utf8)) }
        let error = #expect(throws: HARError.self) {
            try HAR.mappings(
                fromHAR: Data(
                    #"{"log": {"entries": [{"request": {"method": "GET", "url": "http://a/"}}]}}"#.utf8))
        }
        #expect(error?.message.contains("log.entries[0].response.status") == true)
    }

    /// What HAR 1.2 requires of a document and its entries, missing here.
    static func schemaProblems(_ document: JSONValue) -> [String] {
        var problems: [String] = []
        func require(_ value: JSONValue?, _ path: String, _ check: (JSONValue) -> Bool) {
            if let value, check(value) { return }
            problems.append("\(path) is missing or of the wrong type")
        }
        let isString: (JSONValue) -> Bool = { $0.stringValue != nil }
        let isNumber: (JSONValue) -> Bool = { $0.doubleValue != nil }
        let isArray: (JSONValue) -> Bool = { if case .array = $0 { true } else { false } }
        let isObject: (JSONValue) -> Bool = { if case .object = $0 { true } else { false } }
        require(document["log"]?["version"], "log.version", isString)
        require(document["log"]?["creator"]?["name"], "log.creator.name", isString)
        require(document["log"]?["creator"]?["version"], "log.creator.version", isString)
        guard case .array(let entries)? = document["log"]?["entries"] else {
            return problems + ["log.entries"]
        }
        for (index, entry) in entries.enumerated() {
            let at = "log.entries[\(index)]"
            require(entry["startedDateTime"], "\(at).startedDateTime", isString)
            require(entry["time"], "\(at).time", isNumber)
            require(entry["cache"], "\(at).cache", isObject)
            for key in ["send", "wait", "receive"] {
                require(entry["timings"]?[key], "\(at).timings.\(key)", isNumber)
            }
            for key in ["method", "url", "httpVersion"] {
                require(entry["request"]?[key], "\(at).request.\(key)", isString)
            }
            for key in ["cookies", "headers", "queryString"] {
                require(entry["request"]?[key], "\(at).request.\(key)", isArray)
            }
            for key in ["headersSize", "bodySize"] {
                require(entry["request"]?[key], "\(at).request.\(key)", isNumber)
            }
            require(entry["response"]?["status"], "\(at).response.status", isNumber)
            for key in ["statusText", "httpVersion", "redirectURL"] {
                require(entry["response"]?[key], "\(at).response.\(key)", isString)
            }
            for key in ["cookies", "headers"] {
                require(entry["response"]?[key], "\(at).response.\(key)", isArray)
            }
            for key in ["headersSize", "bodySize"] {
                require(entry["response"]?[key], "\(at).response.\(key)", isNumber)
            }
            require(entry["response"]?["content"]?["size"], "\(at).response.content.size", isNumber)
            require(entry["response"]?["content"]?["mimeType"], "\(at).response.content.mimeType", isString)
        }
        return problems
    }
}
