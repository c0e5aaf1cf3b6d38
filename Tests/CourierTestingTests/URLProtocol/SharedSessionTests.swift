import CourierTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Code that calls `URLSession.shared` itself, as a third-party SDK does, answered in process.
///
/// On Linux the shared session keeps the protocol list it was first made with, and in this test
/// process any other test may make it first; so the check runs in a fresh process of this test bundle,
/// where, as in an app, the interception is set up before anything uses `URLSession.shared`.
@Suite(.blocksItsThread) struct SharedSessionTests {
    static let freshProcess = "COURIER_SHARED_SESSION_FRESH_PROCESS"

    /// The code under test: it knows nothing of Courier or of the mock.
    static func fetchGreeting() async throws -> (status: Int, text: String) {
        let url = try #require(URL(string: "https://api.greetings.example/hello?name=ada"))
        let (data, response) = try await URLSession.shared.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func codeCallingTheSharedSessionIsStubbed() async throws {
        guard ProcessInfo.processInfo.environment[Self.freshProcess] != nil else {
            let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
            var environment = ProcessInfo.processInfo.environment
            environment[Self.freshProcess] = "1"
            let child = try await Subprocess.run(
                bundle, ["--testing-library", "swift-testing", "--filter", "SharedSessionTests"],
                environment: environment, timeout: 300)
            #expect(child.status == 0, "\(child.stdoutText)\n\(child.stderrText)")
            #expect(
                (child.stdoutText + child.stderrText).contains(
                    "codeCallingTheSharedSessionIsStubbed() passed"),
                "\(child.stdoutText)\n\(child.stderrText)")
            return
        }
        try URLProtocolMock.interceptSharedSession()
        try await withURLProtocolMock { mock in
            try mock.serve(host: "api.greetings.example")
            try mock.addStubs(
                json: Data(
                    #"{"request": {"method": "GET", "urlPath": "/hello", "queryParameters": {"name": {"equalTo": "ada"}}}, "response": {"status": 200, "body": "hello, ada"}}"#
                        .utf8))
            let (status, text) = try await Self.fetchGreeting()
            #expect(status == 200)
            #expect(text == "hello, ada")
            try mock.verify(#"{"method": "GET", "urlPath": "/hello"}"#)
        }
    }
}
