import Courier
import Foundation

/// `stale-if-error` (RFC 5861 §4): a stale response standing in for a server error.
extension HTTPCache {
    /// The statuses RFC 5861 counts as an error.
    static let errorStatuses: Set<Int> = [500, 502, 503, 504]

    /// Transport failures that mean the server could not be reached or did not answer: what a
    /// gateway would turn into a `502` or `504`. Never a cancellation.
    static let outages: Set<CourierError.Code> = [
        .cannotResolveHost, .cannotConnect, .connectionLost, .timedOut,
    ]

    /// `stored` as the answer to `request` in place of a server error, when its
    /// `stale-if-error` window is not over, it may be served stale at all, and the request
    /// asks for nothing fresher; nil otherwise.
    func serve(
        _ stored: CachedResponse, _ request: TransportRequest, standingInForErrorWith directives: CacheControl
    )
        throws -> TransportResponse?
    {
        guard staleness(of: stored, within: \.staleIfError, directives) != nil,
            let served = try serve(stored, request, source: .cache)
        else { return nil }
        count(\.hits)
        return served
    }
}
