import Foundation
import MockServer
import TestSupport
import Testing

/// A login that sets a session cookie on its redirect: `/me` answers only with the cookie.
private let login = ClosureHandler { request in
    switch request.path {
    case "/login":
        return ServerResponse(
            status: 303,
            headers: [("Location", "/me"), ("Set-Cookie", "sid=s3cret; Path=/; HttpOnly")].reduce(
                into: ServerHeaders()
            ) { $0.add(name: $1.0, value: $1.1) })
    case "/me":
        let signedIn = request.headers["Cookie"] == "sid=s3cret"
        return .text(signedIn ? "welcome back" : "who are you?", status: signedIn ? 200 : 401)
    default:
        return nil
    }
}

@Suite("courier send keeps cookies", .blocksItsThread)
struct SendCookieTests {
    @Test(arguments: ["curl", "urlsession"])
    func aLoginThatSetsACookieAndRedirectsWorksInOneCommand(transport: String) async throws {
        try await withMockServer(handlers: [login]) { server in
            let output = try await CourierProcess.run([
                "send", "POST", "\(server.baseURL)/login", "--data", "user=ann", "--fail", "--transport",
                transport,
            ])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            #expect(output.stdoutText == "welcome back")
        }
    }

    @Test(arguments: ["curl", "urlsession"])
    func aCookieJarFileCarriesTheSessionToTheNextCommand(transport: String) async throws {
        let jar = FileManager.default.temporaryDirectory.appendingPathComponent("courier-jar-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: jar) }
        try await withMockServer(handlers: [login]) { server in
            let first = try await CourierProcess.run([
                "send", "POST", "\(server.baseURL)/login", "--cookie-jar", jar.path, "--transport", transport,
            ])
            #expect(first.status == 0, "stderr: \(first.stderr)")
            let without = try await CourierProcess.run([
                "send", "GET", "\(server.baseURL)/me", "--fail", "--transport", transport,
            ])
            #expect(without.status == 22, "no jar, no cookie")
            let with = try await CourierProcess.run([
                "send", "GET", "\(server.baseURL)/me", "-c", jar.path, "--fail", "--transport", transport,
            ])
            #expect(with.stdoutText == "welcome back", "stderr: \(with.stderr)")
            try Data("not a jar".utf8).write(to: jar)
            let broken = try await CourierProcess.run(["send", "GET", "\(server.baseURL)/me", "-c", jar.path])
            #expect(broken.status == 1)
            #expect(broken.stderr.contains("invalidConfiguration"), "\(broken.stderr)")
        }
    }
}
