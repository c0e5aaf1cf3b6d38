import Foundation
import MockServer
import Testing

@Suite("Python clients against the mock server")
struct PythonClientTests {
    let python = ExternalTool.find("python3") ?? "python3"

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
            let output = try ExternalTool.run(python, ["-c", script, "\(server.port)"])
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
            let output = try ExternalTool.run(python, ["-c", script, server.baseURL.absoluteString])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(
                output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[1, 1, 1, 'xyz', 206] 1")
            let count = json(
                try perform(server, "POST", "/__admin/requests/count", body: #"{"url": "/stubbed"}"#))
            #expect(count["count"] as? Int == 3)
        }
    }

    static func hasRequests() -> Bool {
        guard let python = ExternalTool.find("python3") else { return false }
        return (try? ExternalTool.run(python, ["-c", "import requests"]).status) == 0
    }
}
