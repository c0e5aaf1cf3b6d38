import Foundation
import MockServer
import TestSupport
import Testing

/// Replays the fuzz corpus and every saved fuzz regression against a live mock server over a raw socket:
/// the server must answer or close (never hang), and keep serving others afterwards (never crash).
@Suite(.blocksItsThread, .timeLimit(.minutes(1)))
struct FuzzReplayTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    /// Every input file under `corpus` and `regressions`, as a path relative to Tests/Fuzz.
    static var inputs: [String] {
        ["corpus", "regressions"].flatMap { folder -> [String] in
            let url = fuzzFolder.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(folder)/\($0)" }
        }
    }

    @Test func corpusIsPresent() {
        #expect(Self.inputs.filter { $0.hasPrefix("corpus/") }.count >= 10)
    }

    @Test(arguments: inputs)
    func inputIsAnsweredOrClosed(_ name: String) async throws {
        let bytes = Array(try Data(contentsOf: Self.fuzzFolder.appendingPathComponent(name)))
        let handler = ClosureHandler { request in .text("echo \(request.method) \(request.path)", status: 200)
        }
        // A short request timeout so that an incomplete input is closed (408) quickly instead of waiting.
        let configuration = MockServerConfiguration(idleTimeout: .seconds(1), requestTimeout: .seconds(1))
        try await withMockServer(configuration: configuration, handlers: [handler]) { server in
            let socket = try RawSocket.connect(port: server.port, timeout: 4)
            socket.send(bytes)
            let (received, end) = socket.readAll(limit: 1 << 20)
            let status = RawSocket.status(of: received)
            #expect(
                end != .timedOut || status != nil, "\(name): no answer and the connection stayed open")
            if !received.isEmpty {
                #expect(status != nil, "\(name): the server wrote something that is not a response")
            }
            let probe = try RawSocket.connect(port: server.port, timeout: 4)
            probe.send("GET /alive HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            #expect(probe.readStatus() == 200, "\(name): the server stopped serving")
        }
    }
}
