import CourierTesting
import Foundation
import MockServer
import TestSupport
import Testing

/// An echo server: answers every request with a JSON description of what it received.
private let echo = ClosureHandler { request in
    if request.path == "/status/503" { return .text("unavailable", status: 503) }
    if request.path == "/big" {
        return ServerResponse(
            status: 200, headers: ["Content-Type": "application/octet-stream"],
            body: .generated(length: 3 << 20, producer: Pattern.bytes))
    }
    if request.path == "/cut" { return cutTwice(range: request.headers["Range"]) }
    let body = (try? request.bodyData()) ?? Data()
    let echoed: [String: Any] = [
        "method": request.method,
        "target": request.target,
        "contentType": request.headers["Content-Type"] ?? "",
        "authorization": request.headers["Authorization"] ?? "",
        "custom": request.headers["X-Custom"] ?? "",
        "body": String(decoding: body, as: UTF8.self),
    ]
    return .json((try? JSONSerialization.data(withJSONObject: echoed, options: [.sortedKeys])) ?? Data())
}

private func decode(_ output: CourierProcess.Output) throws -> [String: String] {
    let object = try JSONSerialization.jsonObject(with: output.stdout)
    return try #require(
        object as? [String: String], "stdout was \(output.stdoutText) stderr \(output.stderr)")
}

@Suite("courier send against a loopback server", .blocksItsThread)
struct SendCommandTests {
    @Test(arguments: ["curl", "urlsession"])
    func sendsJSONWithHeadersAndPrintsTheBody(transport: String) async throws {
        try await withMockServer(handlers: [echo]) { server in
            let output = try await CourierProcess.run([
                "send", "POST", "\(server.baseURL)/items?tag=a%20b", "--transport", transport,
                "-H", "X-Custom: yes", "--json", #"{"name":"ünïcode"}"#, "--user", "ann:secret",
            ])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            let echoed = try decode(output)
            #expect(echoed["method"] == "POST")
            #expect(echoed["target"] == "/items?tag=a%20b")
            #expect(echoed["contentType"] == "application/json")
            #expect(echoed["custom"] == "yes")
            #expect(echoed["authorization"] == "Basic " + Data("ann:secret".utf8).base64EncodedString())
            #expect(echoed["body"] == #"{"name":"ünïcode"}"#)
        }
    }

    @Test func includePrintsTheStatusLineAndHeaders() async throws {
        try await withMockServer(handlers: [echo]) { server in
            let output = try await CourierProcess.run(["send", "GET", "\(server.baseURL)/x", "--include"])
            #expect(output.status == 0)
            let text = output.stdoutText
            #expect(text.hasPrefix("HTTP/1.1 200\r\n"))
            #expect(text.contains("Content-Type: application/json"))
            #expect(text.contains("\r\n\r\n{"))
        }
    }

    @Test func failTurnsAnErrorStatusIntoExit22() async throws {
        try await withMockServer(handlers: [echo]) { server in
            let plain = try await CourierProcess.run(["send", "GET", "\(server.baseURL)/status/503"])
            #expect(plain.status == 0)
            #expect(plain.stdoutText == "unavailable")
            let failing = try await CourierProcess.run([
                "send", "GET", "\(server.baseURL)/status/503", "--fail",
            ])
            #expect(failing.status == 22)
        }
    }

    @Test func multipartFormAndFileParts() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cli-\(UUID()).txt")
        try Data("file contents\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withMockServer(handlers: [echo]) { server in
            let output = try await CourierProcess.run([
                "send", "PUT", "\(server.baseURL)/upload", "--form", "title=hello", "--file",
                "video=@\(file.path)",
            ])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            let echoed = try decode(output)
            #expect(echoed["contentType"]?.hasPrefix("multipart/form-data; boundary=") == true)
            let body = try #require(echoed["body"])
            #expect(body.contains("name=\"title\"\r\n\r\nhello\r\n"))
            #expect(body.contains("filename=\"\(file.lastPathComponent)\""))
            #expect(body.contains("file contents\n"))
        }
    }

    @Test(arguments: ["curl", "urlsession"])
    func outputResumesACutDownloadUnderTheConfiguredRetries(transport: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cli-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("cut.bin")
        let config = directory.appendingPathComponent("courier.json")
        try Data(#"{ "retry": { "maxAttempts": 3, "baseDelay": 0.01 } }"#.utf8).write(to: config)
        try await withMockServer(handlers: [echo]) { server in
            let output = try await CourierProcess.run([
                "send", "GET", "\(server.baseURL)/cut", "--output", target.path, "--transport", transport,
                "--config", config.path, "--verbose",
            ])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            #expect(output.stderr.contains("* attempt 3"), "two cuts, two retries: \(output.stderr)")
            let resumes = output.stderr.components(separatedBy: "Range: bytes=").count - 1
            #expect(resumes == 2, "each retry asks for the rest: \(output.stderr)")
            #expect(output.stderr.contains("If-Range: \"cut-v1\""))
            let written = try Data(contentsOf: target)
            // Compared as one Bool: on a mismatch Swift Testing would diff two multi-MiB buffers, which
            // under ThreadSanitizer ran for over ten minutes on both cooperative threads.
            let expected = cutBody(offset: 0, count: cutSize)
            let firstDifference = zip(written, expected).enumerated().first { $0.element.0 != $0.element.1 }?
                .offset
            #expect(
                Bool(written == expected),
                "\(written.count) bytes of \(expected.count); first difference at \(String(describing: firstDifference))"
            )
            #expect(!FileManager.default.fileExists(atPath: target.path + ".courier-resume"))
        }
    }

    @Test(arguments: ["curl", "urlsession"])
    func outputStreamsTheBodyToAFile(transport: String) async throws {
        let target = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-cli-\(UUID()).bin")
        defer { try? FileManager.default.removeItem(at: target) }
        try await withMockServer(handlers: [echo]) { server in
            let output = try await CourierProcess.run([
                "send", "GET", "\(server.baseURL)/big", "--output", target.path, "--transport", transport,
            ])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            #expect(output.stdout.isEmpty)
            let written = try Data(contentsOf: target)
            #expect(written.count == 3 << 20)
            #expect(Bool(written == Pattern.bytes(offset: 0, count: 3 << 20)))
        }
    }

    @Test(arguments: ["curl", "urlsession"])
    func connectionRefusedIsOneLineOnStderrAndExit1(transport: String) async throws {
        let output = try await CourierProcess.run([
            "send", "GET", "http://127.0.0.1:1/", "--transport", transport,
        ])
        #expect(output.status == 1)
        #expect(output.stderr.contains("(cannotConnect) — GET http://127.0.0.1:1/"), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1)
    }

    @Test(arguments: [
        (["send"], "send needs METHOD and URL"),
        (["send", "GET", "not a url"], "is not an absolute http or https URL"),
        (["send", "GET", "http://x/", "--json", "{bad"], "--json is not valid JSON"),
        (["send", "GET", "http://x/", "-H", "NoColon"], "must look like 'Name: value'"),
        (["send", "GET", "http://x/", "-H", "X-A: b\rc"], "contains CR, LF or NUL"),
        (
            ["send", "GET", "http://x/", "--transport", "carrier-pigeon"],
            "--transport takes curl or urlsession"
        ),
        (["send", "GET", "http://x/", "--bogus"], "unknown option '--bogus'"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["mock", "--seed-data", "100000000"], "--seed-data takes 0 to 10000 posts"),
        (["mock", "--seed-data", "-1"], "--seed-data takes 0 to 10000 posts"),
        (["demo", "--seed-data", "10001"], "--seed-data takes 0 to 10000 posts"),
    ])
    func badArgumentsGiveAClearErrorAndExit64(arguments: [String], message: String) async throws {
        let output = try await CourierProcess.run(arguments)
        #expect(output.status == 64, "stderr: \(output.stderr)")
        #expect(output.stderr.contains(message), "stderr: \(output.stderr)")
    }

    @Test func everySubcommandHasHelp() async throws {
        for command in ["send", "mock", "bench"] {
            let output = try await CourierProcess.run([command, "--help"])
            #expect(output.status == 0, "\(command)")
            #expect(
                output.stdoutText.contains("usage: courier \(command)"), "\(command): \(output.stdoutText)")
        }
    }
}

private let cutSize = 3 << 20

private func cutBody(offset: Int64, count: Int) -> Data {
    Pattern.bytes(offset: offset, count: count)
}

/// `/cut`: `cutSize` bytes with an `ETag`, cut twice without keeping any state: a request
/// without `Range` is cut in the first third, one resuming before the middle is cut past it,
/// and one resuming after the middle gets the rest.
private func cutTwice(range: String?) -> ServerResponse {
    let size = Int64(cutSize)
    var response = ServerResponse(
        headers: ["Content-Type": "application/octet-stream", "ETag": "\"cut-v1\""],
        body: .generated(length: size) { offset, count in cutBody(offset: offset, count: count) })
    let start = range.flatMap { Int64($0.dropFirst("bytes=".count).dropLast()) }
    switch start {
    case nil:
        response.fault = .truncatedBody
        response.truncateAfter = Int64.random(in: 1..<(size / 3))
    case let start? where start < size / 2:
        response.fault = .truncatedBody
        response.truncateAfter = Int64.random(in: (size / 2 - start)..<(size * 3 / 4 - start))
    default:
        break
    }
    return response
}
