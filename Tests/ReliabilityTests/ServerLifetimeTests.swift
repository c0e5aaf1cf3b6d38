import Foundation
import MockServer
import TestSupport
import Testing

/// A handler that only marks its own lifetime.
final class LifetimeMarker: HTTPHandler {
    func handle(_ request: ServerRequest) -> ServerResponse? { nil }
}

/// A server that was shut down and dropped must release what it held: its handlers (a social backend
/// with its whole state, say), its journal and its event loops. Test processes start hundreds of servers.
@Suite(.blocksItsThread, .timeLimit(.minutes(1)))
struct ServerLifetimeTests {
    @Test(arguments: [1, 2, 4])
    func shutDownServerReleasesItsHandlers(eventLoops: Int) async throws {
        weak var weakHandler: LifetimeMarker?
        do {
            let handler = LifetimeMarker()
            weakHandler = handler
            let configuration = MockServerConfiguration(eventLoopCount: eventLoops)
            try await withMockServer(configuration: configuration, handlers: [handler]) { server in
                let socket = try RawSocket.connect(port: server.port, timeout: 2)
                socket.send("GET /x HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
                #expect(socket.readStatus() == 404)
            }
        }
        // The loop threads let go of the loops as they exit; give them a moment.
        #expect(await eventually { weakHandler == nil }, "the handler outlived its server")
    }
}
