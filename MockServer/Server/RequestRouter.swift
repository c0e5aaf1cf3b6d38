import Foundation

/// The handler chain: admin API → stubs → chaos → the given handlers → a 404 naming the closest stub.
final class RequestRouter: Sendable {
    let configuration: MockServerConfiguration
    let handlers: [any HTTPHandler]

    init(configuration: MockServerConfiguration, handlers: [any HTTPHandler]) {
        self.configuration = configuration
        self.handlers = handlers
    }

    func respond(to request: ServerRequest) -> ServerResponse {
        for handler in handlers {
            if let response = handler.handle(request) { return response }
        }
        return .text("No stub or handler matched \(request.method) \(request.target)\n", status: 404)
    }
}
