import Courier
import Foundation

/// Validating with the other variants' entity tags when no stored variant matches a request
/// (RFC 9111 §4.1, §4.3.1, §4.3.4).
extension HTTPCache {
    /// The stored complete responses for `key` with a strong `ETag` that a request with
    /// `headers` does not select but may still be answered with, if the server names one: those
    /// stored for the same credentials (another user's never are).
    func otherVariants(_ key: String, for headers: HTTPHeaders) -> [CachedResponse] {
        let credentials = CachedResponse.normalized(headers, "authorization")
        return store.variants(forKey: key).filter {
            $0.status != 206 && $0.strongETag != nil && ($0.vary["authorization"] ?? "") == credentials
        }
    }

    /// `request` asking the server whether one of `variants` is what it would send:
    /// `If-None-Match` with their entity tags, unless there are none.
    static func conditional(_ request: TransportRequest, offering variants: [CachedResponse])
        -> TransportRequest
    {
        let tags = Array(Set(variants.compactMap(\.strongETag))).sorted()
        guard !tags.isEmpty else { return request }
        var outgoing = request
        outgoing.headers.replaceOrAdd(name: "If-None-Match", value: tags.joined(separator: ", "))
        return outgoing
    }

    /// The one of `variants` a `304` names by its strong `ETag` (§4.3.4), if any.
    static func named(by notModified: TransportResponse, in variants: [CachedResponse]) -> CachedResponse? {
        guard let etag = notModified.headers["ETag"]?.trimmingCharacters(in: .whitespaces),
            etag.hasPrefix("\"")
        else { return nil }
        return variants.filter { $0.strongETag == etag }.max { $0.responseTime < $1.responseTime }
    }
}

extension CachedResponse {
    /// Its `ETag`, when that is a strong one.
    var strongETag: String? {
        guard let etag = httpHeaders["ETag"]?.trimmingCharacters(in: .whitespaces), etag.hasPrefix("\"")
        else {
            return nil
        }
        return etag
    }
}
