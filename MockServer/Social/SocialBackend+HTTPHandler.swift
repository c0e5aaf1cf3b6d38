import Courier
import Foundation
import MockServer

extension SocialBackend: HTTPHandler {
    /// Answers requests for the contract's paths and `/storage/`; returns `nil` for others.
    public func handle(_ request: ServerRequest) -> ServerResponse? {
        respond(to: request)
    }
}

extension SocialRequest {
    /// The backend's view of a server request.
    init(_ request: ServerRequest) {
        self.init(
            method: request.method, path: request.path, query: request.query,
            headers: Array(request.headers), body: request.body, bodyFile: request.bodyFile)
    }
}

extension SocialResponse {
    /// The response as the server sends it.
    var server: ServerResponse {
        let body: ServerResponseBody =
            switch body {
            case .empty: .empty
            case .data(let data): .data(data)
            case .file(let url): .file(url)
            }
        return ServerResponse(status: status, headers: ServerHeaders(headers), body: body)
    }
}
