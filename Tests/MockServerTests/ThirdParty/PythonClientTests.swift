import Foundation
import MockServer
import TestSupport
import Testing

@Suite("Python clients against the mock server", .blocksItsThread)
struct PythonClientTests {
    let python = Self.python ?? "python3"

    /// The contract virtualenv's Python, where `scripts/install-deps.sh test` installs `requests` and
    /// `wiremock`; else the system's.
    static let python: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let venv = root.appendingPathComponent(".build/contract-venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : ExternalTool.find("python3")
    }()

    /// http.client (standard library): keep-alive on one connection, a chunked upload, HEAD.
    @Test func httpClientStandardLibrary() async throws {
        let script = """
            import http.client, sys
            port = int(sys.argv[1])
            conn = http.client.HTTPConnection("127.0.0.1", port)
            conn.request("GET", "/hello"); r = conn.getresponse(); a = r.read()
            sock = conn.sock
            conn.request("POST", "/echo", body=iter([b"ab", b"cd"]), encode_chunked=True,
                         headers={"Transfer-Encoding": "chunked"})
            r2 = conn.getresponse(); b = r2.read()
            same = conn.sock is sock
            conn.request("HEAD", "/hello"); r3 = conn.getresponse(); r3.read()
            print(a.decode(), b.decode(), r3.getheader("Content-Length"), same)
            """
        try await withMockServer(handlers: TestHandlers.all) { server in
            let output = try await ExternalTool.run(python, ["-c", script, "\(server.port)"])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "hello abcd 5 True")
        }
    }

    /// The `requests` library (scripts/install-deps.sh installs it): a session reuses its connection;
    /// JSON stubs work.
    @Test func requestsLibrary() async throws {
        try #require(Self.hasRequests(), "python3 cannot import requests: run scripts/install-deps.sh test")
        let script = """
            import requests, sys
            base = sys.argv[1]
            s = requests.Session()
            out = []
            for _ in range(3):
                r = s.get(base + "/stubbed")
                out.append(r.json()["ok"])
            r = s.post(base + "/echo", data=(c for c in [b"x", b"y", b"z"]))
            out.append(r.text)
            r = s.get(base + "/generated?n=100", headers={"Range": "bytes=0-4"})
            out.append(r.status_code)
            conns = len(s.adapters["http://"].poolmanager.pools)
            print(out, conns)
            """
        try await withMockServer(handlers: TestHandlers.all) { server in
            try server.addStubs(
                json: Data(#"{"request": {"url": "/stubbed"}, "response": {"jsonBody": {"ok": 1}}}"#.utf8))
            let output = try await ExternalTool.run(python, ["-c", script, server.baseURL.absoluteString])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(
                output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[1, 1, 1, 'xyz', 206] 1")
            let count = json(
                try perform(server, "POST", "/__admin/requests/count", body: #"{"url": "/stubbed"}"#))
            #expect(count["count"] as? Int == 3)
        }
    }

    /// WireMock's own Python client (`pip install wiremock`, which scripts/install-deps.sh installs) drives
    /// templating, near misses, metadata removal, and (through plain POSTs: the client has no call for
    /// them) import and recording.
    @Test func wiremockPythonClient() async throws {
        try #require(
            Self.canImport("wiremock"), "python3 cannot import wiremock: run scripts/install-deps.sh test")
        let script = """
            import sys, requests
            from wiremock.constants import Config
            from wiremock.client import (Mappings, Mapping, MappingRequest, MappingResponse, HttpMethods, NearMisses,
                NearMissMatchRequest, NearMissMatchPatternRequest, Requests, Scenarios)
            base, upstream = sys.argv[1], sys.argv[2]
            Config.base_url = base + "/__admin"
            out = []
            # Templating through a client-created mapping.
            Mappings.create_mapping(Mapping(
                request=MappingRequest(method=HttpMethods.GET, url_path_pattern="/users/.*"),
                response=MappingResponse(status=200, body="user {{request.path.[1]}}", transformers=["response-template"]),
                metadata={"team": "a"}))
            out.append(requests.get(base + "/users/7").text)
            # Near misses.
            misses = NearMisses.find_nearest_misses_by_request(NearMissMatchRequest(url="/userz/7", method=HttpMethods.GET))
            out.append(len(misses.near_misses) >= 1 and 0 < misses.near_misses[0].match_result.distance <= 1)
            requests.get(base + "/userz/8")
            by_pattern = NearMisses.find_nearest_misses_by_request_pattern(
                NearMissMatchPatternRequest(url="/userz/9", method=HttpMethods.GET))
            out.append(by_pattern.near_misses[0].request.url)
            unmatched = Requests.get_unmatched_requests_near_misses()
            out.append(unmatched.near_misses[0].request.url)
            # Import (the client has no import call: its REST client's plain POST).
            r = requests.post(base + "/__admin/mappings/import", json={"mappings": [
                {"request": {"url": "/imported"}, "response": {"body": "imp"}}]})
            out.append((r.status_code, requests.get(base + "/imported").text))
            # Recording against the upstream (likewise plain POSTs), then playback.
            requests.post(base + "/__admin/recordings/start", json={"targetBaseUrl": upstream, "persist": False})
            out.append(requests.get(base + "/recorded").text)
            stopped = requests.post(base + "/__admin/recordings/stop").json()
            out.append(len(stopped["mappings"]))
            Mappings.delete_mapping_by_metadata({"matchesJsonPath": {"expression": "$.team", "equalTo": "a"}})
            out.append(requests.get(base + "/users/7").status_code)
            print(out)
            """
        try await withMockServer { upstream in
            try upstream.addStubs(
                json: Data(#"{"request": {"url": "/recorded"}, "response": {"body": "from upstream"}}"#.utf8))
            try await withMockServer { server in
                let output = try await ExternalTool.run(
                    python, ["-c", script, server.baseURL.absoluteString, upstream.baseURL.absoluteString])
                #expect(output.status == 0, "\(output.stderr)")
                #expect(
                    output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                        == "['user 7', True, '/userz/8', '/userz/8', (200, 'imp'), 'from upstream', 1, 404]")
            }
        }
    }

    static func canImport(_ module: String) -> Bool {
        guard let python else { return false }
        return ExternalTool.probe(python, ["-c", "import \(module)"]) == 0
    }

    static func hasRequests() -> Bool {
        guard let python else { return false }
        return ExternalTool.probe(python, ["-c", "import requests"]) == 0
    }
}
