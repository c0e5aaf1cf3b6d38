import Courier
import CourierPrimitives
import Foundation

/// A stored response's head and what the cache needs to judge it (RFC 9111 §4).
struct CachedResponse: Codable, Sendable {
    /// The request URL it answers.
    var key: String
    /// Its body file's name in the cache folder.
    var file: String
    /// The body's size in bytes.
    var size: Int64
    var status: Int
    /// The response header fields, in order, as name-value pairs.
    var headers: [[String]]
    /// The request's values of the fields `Vary` names, lower-cased names; "" for absent.
    var vary: [String: String]
    /// When the request that fetched it was sent, and when its answer arrived (seconds
    /// since 1970).
    var requestTime: Double
    var responseTime: Double
    /// The cache's use counter when it was last used, for least-recently-used eviction.
    var lastUse: UInt64

    /// A malformed pair from a damaged index (`[]`) counts as no field.
    var httpHeaders: HTTPHeaders {
        HTTPHeaders(headers.compactMap { pair in pair.first.map { ($0, pair.count > 1 ? pair[1] : "") } })
    }

    /// Statuses a cache may give a heuristic freshness to (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [
        200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501,
    ]

    /// How long the response is fresh for, in seconds (RFC 9111 §4.2.1): `max-age`, else
    /// `Expires` minus `Date`, else 10% of the time since `Last-Modified` (at most a day).
    var freshnessLifetime: TimeInterval {
        let headers = httpHeaders
        if let maxAge = CacheControl(headers).maxAge { return TimeInterval(maxAge) }
        let date = headers["Date"].flatMap(HTTPDate.parse) ?? Date(timeIntervalSince1970: responseTime)
        if let expires = headers["Expires"] {
            guard let expiry = HTTPDate.parse(expires) else { return 0 }  // invalid: already stale
            return max(0, expiry.timeIntervalSince(date))
        }
        if Self.heuristicallyCacheable.contains(status),
            let modified = headers["Last-Modified"].flatMap(HTTPDate.parse)
        {
            return min(86_400, max(0, date.timeIntervalSince(modified)) / 10)
        }
        return 0
    }

    /// The response's age at `now`, in seconds (RFC 9111 §4.2.3).
    func age(at now: Date) -> TimeInterval {
        let headers = httpHeaders
        let date = headers["Date"].flatMap(HTTPDate.parse)?.timeIntervalSince1970 ?? responseTime
        let apparentAge = max(0, responseTime - date)
        let ageValue = headers["Age"].flatMap(Self.deltaSeconds) ?? 0
        let correctedAge = ageValue + (responseTime - requestTime)
        return max(apparentAge, correctedAge) + (now.timeIntervalSince1970 - responseTime)
    }

    /// The largest delta-seconds value kept; a greater one is read as this (RFC 9111 §1.2.2).
    static let maxDeltaSeconds: TimeInterval = 2_147_483_648

    /// A delta-seconds field value (digits only, RFC 9111 §1.2.2), capped at `maxDeltaSeconds`;
    /// nil for anything else (`inf`, `-5`, `1e9`), which is then ignored.
    static func deltaSeconds(_ text: String) -> TimeInterval? {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return min(TimeInterval(digits) ?? maxDeltaSeconds, maxDeltaSeconds)
    }

    /// Whether the request's `Vary` fields have the values this response was stored under.
    func varyMatches(_ request: HTTPHeaders) -> Bool {
        vary.allSatisfy { name, value in Self.normalized(request, name) == value }
    }

    /// A request field's value as `Vary` compares it: every value joined, whitespace folded;
    /// `Authorization` only as a hash, so no credential is written to disk.
    static func normalized(_ headers: HTTPHeaders, _ name: String) -> String {
        let value = headers.values(for: name).joined(separator: ",").split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
        guard name == "authorization", !value.isEmpty else { return value }
        return CacheStore.fileName(forKey: value, fileExtension: "")
    }

    /// The request fields every stored response varies on, whatever its `Vary` says: a
    /// response to one user's credentials is never served for another's.
    static let implicitVary = ["authorization"]

    /// Fields that describe one connection, never stored.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "transfer-encoding", "proxy-connection", "te", "trailer", "upgrade",
    ]

    /// Fields a `304` does not replace (RFC 9111 §3.2), and hop-by-hop fields never stored.
    static let keptOn304: Set<String> = [
        "content-length", "content-encoding", "transfer-encoding", "content-range", "connection",
        "keep-alive",
    ]

    /// The stored header fields updated with those of a `304` (RFC 9111 §4.3.4), received at
    /// `now`: a `304` without `Date` is dated when it arrived (RFC 9110 §6.6.1).
    mutating func merge(_ notModified: HTTPHeaders, receivedAt now: Date) {
        var notModified = notModified
        if notModified["Date"] == nil { notModified.add(name: "Date", value: Self.httpDate(now)) }
        let replaced = Set(notModified.map { $0.name.lowercased() }).subtracting(Self.keptOn304)
        var merged = headers.filter { ($0.first).map { !replaced.contains($0.lowercased()) } ?? false }
        for field in notModified where replaced.contains(field.name.lowercased()) {
            merged.append([field.name, field.value])
        }
        headers = merged
    }
}

extension CachedResponse {
    /// `date` in the IMF-fixdate form of RFC 9110 §5.6.7.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
