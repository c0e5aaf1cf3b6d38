import Courier
import Foundation

extension HTTPCache {
    /// Sends a `HEAD` the cache could not answer. A `200` updates each stored `GET` response
    /// that could have answered it and that it describes (the same validators it sends, the same
    /// `Content-Length` if it sends one) with its header fields, and removes the others (RFC 9111
    /// §4.3.5). Any other status leaves them alone. The server's answer is returned as it came.
    func send(
        head request: TransportRequest, key: String,
        next: @Sendable (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        let requestTime = now()
        let response = try await next(request)
        guard response.status == 200 else { return response }
        for stored in store.variants(forKey: key)
        where stored.status != 206 && stored.varyMatches(request.headers) {
            if stored.isDescribed(byHead: response.headers) {
                _ = refresh(stored, with: response, sentAt: requestTime)
            } else {
                store.remove(stored)
            }
        }
        return response
    }
}

extension CachedResponse {
    /// Whether a `200` to a `HEAD` with `headers` describes this response: each validator it
    /// sends (`ETag`, `Last-Modified`) is this one's, and so is its `Content-Length`, if sent.
    func isDescribed(byHead headers: HTTPHeaders) -> Bool {
        let stored = httpHeaders
        for name in ["ETag", "Last-Modified"] {
            if let value = headers[name], value != stored[name] { return false }
        }
        guard let length = headers["Content-Length"] else { return true }
        let storedLength = stored["Content-Length"] ?? String(size)
        return length.trimmingCharacters(in: .whitespaces)
            == storedLength.trimmingCharacters(in: .whitespaces)
    }
}
