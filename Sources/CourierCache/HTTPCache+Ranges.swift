import Courier
import CourierPrimitives
import Foundation

extension HTTPCache {
    /// Answers a `GET` with a `Range` from a fresh stored response when it can (see the type's
    /// description), else sends it and stores what comes back.
    func answer(
        range value: String, _ request: TransportRequest, _ directives: CacheControl,
        next: @Sendable (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        guard let range = ByteRange(value) else { return try await next(request) }
        let key = Self.key(request.url)
        let headers = request.headers
        let ifRange = headers["If-Range"]
        if let stored = selected(key, for: headers), usable(stored, directives) {
            if let ifRange, !stored.isCurrent(ifRange: ifRange) {
                // Another version than the client holds: the whole response (RFC 9110 §13.1.5).
                if let whole = try serve(stored, request, source: .cache) {
                    count(\.hits)
                    return whole
                }
            } else if let response = try serve(range, of: stored, request) {
                count(\.hits)
                return response
            }
        }
        let parts = store.variants(forKey: key).filter {
            $0.status == 206 && $0.varyMatches(headers) && usable($0, directives)
                && (ifRange.map($0.isCurrent(ifRange:)) ?? true)
        }
        for part in parts.sorted(by: { $0.responseTime > $1.responseTime }) {
            guard let stored = ContentRange(part: part.httpHeaders), let length = stored.length,
                let wanted = range.positions(in: length), stored.bytes.contains(wanted.lowerBound),
                stored.bytes.contains(wanted.upperBound)
            else { continue }
            let offset = stored.bytes.lowerBound
            let bytes = (wanted.lowerBound - offset)...(wanted.upperBound - offset)
            let contentRange = "bytes \(wanted.lowerBound)-\(wanted.upperBound)/\(length)"
            if let response = try serve(part, request, source: .cache, part: (bytes, contentRange)) {
                count(\.hits)
                return response
            }
        }
        if directives.onlyIfCached {
            return TransportResponse(status: 504, headers: ["Content-Type": "text/plain"], url: request.url)
        }
        let requestTime = now()
        let response = try await next(request)
        count(\.misses)
        return keep(response, for: request, headers: headers, key: key, sentAt: requestTime)
    }

    /// `range` of a stored complete response: a `206`, or a `416` when no byte of it exists.
    private func serve(_ range: ByteRange, of stored: CachedResponse, _ request: TransportRequest) throws
        -> TransportResponse?
    {
        guard stored.status == 200 else { return nil }
        guard let bytes = range.positions(in: stored.size) else {
            var headers = HTTPHeaders()
            headers.add(name: "Content-Range", value: "bytes */\(stored.size)")
            headers.add(name: "Content-Length", value: "0")
            if let date = stored.httpHeaders["Date"] { headers.add(name: "Date", value: date) }
            return TransportResponse(
                status: 416, headers: headers, body: .data(Data()), url: request.url, source: .cache)
        }
        return try serve(
            stored, request, source: .cache,
            part: (bytes, "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(stored.size)"))
    }
}

extension CachedResponse {
    /// Whether an `If-Range` value names this response (RFC 9110 §13.1.5): its strong `ETag`,
    /// compared strongly, or its `Last-Modified` exactly, when that is a strong validator (at
    /// least a second before the response's `Date`).
    func isCurrent(ifRange value: String) -> Bool {
        let value = value.trimmingCharacters(in: .whitespaces)
        let headers = httpHeaders
        if value.hasPrefix("\"") || value.hasPrefix("W/") {
            guard let etag = headers["ETag"]?.trimmingCharacters(in: .whitespaces), etag.hasPrefix("\"")
            else {
                return false
            }
            return etag == value
        }
        let received = Date(timeIntervalSince1970: responseTime)
        guard let date = HTTPDate.parse(value, now: received),
            let modified = headers["Last-Modified"].flatMap({ HTTPDate.parse($0, now: received) }),
            date == modified
        else { return false }
        let responseDate = headers["Date"].flatMap { HTTPDate.parse($0, now: received) } ?? received
        return responseDate.timeIntervalSince(modified) >= 1
    }
}
