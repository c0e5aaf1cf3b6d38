import Courier
import CourierContract
import CourierInterceptors
import CourierPrimitives
import CourierTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct CURLRenderingTests {
    @Test func rendersAndRedacts() throws {
        var head = URLRequest(url: URL(string: "https://api.test/feed?page=2&access_token=abc123")!)
        head.httpMethod = "POST"
        head.setValue("Bearer abc123", forHTTPHeaderField: "Authorization")
        head.setValue("session=xyz", forHTTPHeaderField: "Cookie")
        head.setValue("k-1", forHTTPHeaderField: "X-Refresh-Token")
        head.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let body = Data(#"{"user":"ann","password":"hunter2","nested":{"refresh_token":"r"}}"#.utf8)
        let command = CURLRendering.command(for: TransportRequest(urlRequest: head, body: .data(body)))
        #expect(
            command == """
                curl \\
                  -X POST \\
                  'https://api.test/feed?page=2&access_token=<redacted>' \\
                  -H 'Authorization: <redacted>' \\
                  -H 'Content-Type: application/json' \\
                  -H 'Cookie: <redacted>' \\
                  -H 'X-Refresh-Token: <redacted>' \\
                  --data-binary '{"nested":{"refresh_token":"<redacted>"},"password":"<redacted>","user":"ann"}'
                """)
        for secret in ["abc123", "xyz", "hunter2", "k-1", "\"r\""] {
            #expect(!command.contains(secret), "leaked \(secret)")
        }
        #expect(command.contains("-H 'Content-Type: application/json'"))
        #expect(command.contains(#""user":"ann""#))
    }

    @Test func redactsFormBodiesAndQuotesShellCharacters() throws {
        var request = TransportRequest(urlRequest: URLRequest(url: URL(string: "https://api.test/login")!))
        request.method = .post
        try FormBody(["user": "o'neil", "password": "p w"]).encode(into: &request)
        let command = request.cURLDescription
        #expect(command.contains(#"--data-binary 'password=<redacted>&user=o%27neil'"#))
        #expect(CURLRendering.quote("it's") == #"'it'\''s'"#)
    }

    @Test func summarisesFileAndStreamBodies() throws {
        let head = URLRequest(url: URL(string: "https://api.test/upload")!)
        let file = CURLRendering.command(
            for: TransportRequest(urlRequest: head, body: .file(URL(fileURLWithPath: "/tmp/v.mp4"))))
        #expect(file.contains("--data-binary '@/tmp/v.mp4'"))
        let stream = CURLRendering.command(
            for: TransportRequest(
                urlRequest: head, body: .stream(BodyStream(length: 42) { OneShotReader(Data()) })))
        #expect(stream.contains("streamed body, 42 bytes"))
        #expect(!stream.contains("-X"))
    }

    @Test func redactionOfURLsHidesPasswordsAndTokens() {
        let url = URL(string: "https://ann:pw@api.test/x?token=t&q=ok")!
        #expect(Redaction.redact(url: url) == "https://ann:<redacted>@api.test/x?token=<redacted>&q=ok")
        // A user name alone is a token as often as a name.
        #expect(
            Redaction.redact(url: URL(string: "https://ghp_abc@api.test/x")!)
                == "https://<redacted>@api.test/x")
    }

    @Test(arguments: [
        ("api-key", true), ("X-Goog-Api-Key", true), ("Ocp-Apim-Subscription-Key", true), ("apikey", true),
        ("X-Amz-Signature", true), ("X-Auth-Token", true), ("Key", true), ("Keep-Alive", false),
        ("Accept", false), ("X-Request-Id", false), ("Monkey", false),
    ])
    func keyLikeHeadersAreSensitive(name: String, sensitive: Bool) {
        #expect(Redaction.isSensitive(header: name) == sensitive)
    }

    @Test func multipartPartsWithSecretNamesAreHidden() throws {
        var request = TransportRequest(url: URL(string: "https://api.test/signup")!)
        request.method = .post
        var form = MultipartForm(boundary: "XyZ")
        form.append("ann", name: "user")
        form.append("hunter2", name: "password")
        try form.encode(into: &request)
        let command = request.cURLDescription
        #expect(!command.contains("hunter2"), "\(command)")
        #expect(command.contains("ann"))
        #expect(command.contains(Redaction.placeholder))
    }

    @Test func aProxyErrorDoesNotShowItsPassword() {
        let error = #expect(throws: CourierError.self) {
            try ProxySettings(url: "ftp://user:s3cret@proxy.test:3128")
        }
        #expect(error?.message.contains("s3cret") == false, "\(String(describing: error))")
    }

    @Test func loggerWritesRedactedLines() async throws {
        let lines = Locked<[String]>([])
        let logger = LoggingEventMonitor(includeCURL: true) { line in lines.withLock { $0.append(line) } }
        let stub = StubTransport()
        stub.on(.get, "/feed", .status(503))
        struct Secret: APIConfigurable {
            var method: HTTPMethod { .get }
            var path: EndpointPath { "/feed" }
            var parameters: any ParameterConvertible { URLQuery(["api_key": "SECRET", "page": 1]) }
            var headers: HTTPHeaders { ["Authorization": "Bearer SECRET"] }
        }
        let manager = makeManager(
            stub, interceptors: [RetryPolicy(maxAttempts: 2, random: { 0 }, sleep: { _ in })],
            monitors: [logger])
        _ = try? await manager.sendRaw(Secret())
        let output = lines.withLock { $0 }
        #expect(
            output.contains { $0.hasPrefix("→ GET https://api.test/feed?") && $0.hasSuffix("(attempt 1)") })
        #expect(output.contains { $0.hasPrefix("← 503 GET") })
        #expect(output.contains("↻ retrying, attempt 2 in 0.00 s"))
        #expect(
            output.contains {
                $0.hasPrefix("✗ unacceptable status 503 (unacceptableStatus) — GET https://api.test/feed?")
            })
        #expect(output.contains { $0.hasPrefix("curl") && $0.contains("Authorization: <redacted>") })
        #expect(!output.joined().contains("SECRET"))
    }
}

struct BodyRedactionTests {
    @Test(arguments: [
        (
            #"{"access_token":"abc","user":{"password":"pw","name":"ann"}}"#,
            #"{"access_token":"<redacted>","user":{"name":"ann","password":"<redacted>"}}"#
        ),
        (#"{"token": "abc", "cut": "#, #"{"token": "<redacted>", "cut": "#),
        (#"{"refreshToken": 12345, "n": 1"#, #"{"refreshToken": <redacted>, "n": 1"#),
        ("grant=x&client_secret=s3&user=ann", "grant=x&client_secret=<redacted>&user=ann"),
        ("plain words, no secrets", "plain words, no secrets"),
    ])
    func redactsSecretsInBodies(body: String, expected: String) {
        #expect(Redaction.redact(body: Data(body.utf8)) == expected)
    }

    @Test func errorDescriptionsDoNotLeakBodySecrets() {
        let error = CourierError(
            .decodingFailed, "cannot decode", status: 200, body: Data(#"{"id_token":"SECRET","x":1}"#.utf8))
        #expect(!error.description.contains("SECRET"))
        #expect(error.bodySnippet == #"{"id_token":"<redacted>","x":1}"#)
    }

    @Test func longSnippetsAreCut() {
        let error = CourierError(.unacceptableStatus, "status 500", body: Data(repeating: 0x61, count: 2000))
        #expect(error.bodySnippet == String(repeating: "a", count: 512) + "…")
    }
}

extension CURLRenderingTests {
    /// A JSON body that does not parse (cut short, or not JSON at all) is redacted pair by pair,
    /// as `Redaction.redact(body:)` does, never shown raw.
    @Test(arguments: [
        (#"{"user":"ann","password":"hunter2","#, #"{"user":"ann","password":"<redacted>","#),
        (#"{"token": "abc123", "note": "x"} trailing"#, #"{"token": "<redacted>", "note": "x"} trailing"#),
        ("access_token=abc123&q=1", "access_token=<redacted>&q=1"),
    ])
    func malformedJSONBodiesAreRedacted(body: String, expected: String) {
        var head = URLRequest(url: URL(string: "https://api.test/login")!)
        head.httpMethod = "POST"
        head.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let command = CURLRendering.command(
            for: TransportRequest(urlRequest: head, body: .data(Data(body.utf8))))
        #expect(command.hasSuffix("--data-binary " + CURLRendering.quote(expected)), "\(command)")
        #expect(!command.contains("hunter2") && !command.contains("abc123"), "\(command)")
    }
}
