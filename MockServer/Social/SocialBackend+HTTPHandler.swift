import Courier
import Foundation
import MockServer

extension SocialBackend: HTTPHandler {
    /// Answers requests for the contract's paths and `/storage/`; returns `nil` for others.
    public func handle(_ request: ServerRequest) -> ServerResponse? {
        let social = SocialRequest(
            method: request.method, path: request.path, query: request.query,
            headers: Array(request.headers), body: request.body, bodyFile: request.bodyFile)
        guard let response = respond(to: social) else { return nil }
        let body: ServerResponseBody =
            switch response.body {
            case .empty: .empty
            case .data(let data): .data(data)
            case .file(let url): .file(url)
            }
        return ServerResponse(status: response.status, headers: ServerHeaders(response.headers), body: body)
    }
}
