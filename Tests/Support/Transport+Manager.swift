import Courier
import CourierCookies
import CourierTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Transport {
    /// Sends `request` as an app's call does, through a `NetworkManager` on this transport, so
    /// that it is checked and its redirects are followed (with `cookieJar` on every hop) above
    /// the transport. Every status is accepted, and the request's options and progress are kept.
    ///
    /// - Returns: the final response.
    /// - Throws: `CourierError`, as the manager throws it.
    package func sendThroughManager(
        _ request: TransportRequest, cookieJar: CookieJar? = nil
    ) async throws -> TransportResponse {
        let manager = NetworkManager(
            transport: self, transferOptions: request.options,
            validation: Validation(acceptableStatusCodes: Set(100..<600)), cookieJar: cookieJar)
        let response = try await manager.collected(request, progress: request.progress)
        return TransportResponse(
            status: response.status, headers: response.headers, body: response.body, url: response.url,
            timings: response.timings, httpVersion: response.httpVersion, source: response.source)
    }

    /// Streams `request` through a `NetworkManager` on this transport (see `sendThroughManager`).
    ///
    /// - Returns: the final head and its body.
    /// - Throws: `CourierError`, as the manager throws it.
    package func streamThroughManager(
        _ request: TransportRequest, cookieJar: CookieJar? = nil
    ) async throws -> StreamedResponse {
        let manager = NetworkManager(
            transport: self, transferOptions: request.options,
            validation: Validation(acceptableStatusCodes: Set(100..<600)), cookieJar: cookieJar)
        let response = try await manager.streamed(request, progress: request.progress)
        let head = TransportResponse(
            status: response.status, headers: response.headers, body: response.body, url: response.url,
            timings: response.timings, httpVersion: response.httpVersion)
        return StreamedResponse(head: head, body: response.value)
    }
}
