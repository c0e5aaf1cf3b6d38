import Courier
import CourierPrimitives
import Foundation

/// A stored response's head and what the cache needs to judge it (RFC 9111 §4).
struct CachedResponse: Codable, Sendable {
    /// The request URL it answers; the entries of several variants share it.
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

    /// Whether it has a validator to revalidate with.
    var hasValidator: Bool {
        let headers = httpHeaders
        return headers["ETag"] != nil || headers["Last-Modified"] != nil
    }

    /// Statuses a cache may give a heuristic freshness to (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [
        200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501,
    ]

    /// How long the response is fresh for, in seconds (RFC 9111 §4.2.1): `max-age`, else
    /// `Expires` minus `Date`, else 10% of the time since `Last-Modified` (at most a day) for a
    /// heuristically cacheable status or a `public` response. An `Expires` that is not one
    /// valid HTTP-date means already stale.
    var freshnessLifetime: TimeInterval {
        let headers = httpHeaders
        let directives = CacheControl(headers)
        if let maxAge = directives.maxAge { return TimeInterval(maxAge) }
        let date = date(headers) ?? Date(timeIntervalSince1970: responseTime)
        let expires = headers.values(for: "Expires")
        if !expires.isEmpty {
            guard let expiry = HTTPDate.field("Expires", in: expires, now: received) else { return 0 }
            return max(0, expiry.timeIntervalSince(date))
        }
        if Self.heuristicallyCacheable.contains(status) || directives.isPublic,
            let modified = headers["Last-Modified"].flatMap({ HTTPDate.parse($0, now: received) })
        {
            return min(86_400, max(0, date.timeIntervalSince(modified)) / 10)
        }
        return 0
    }

    /// When the response arrived, which dates with a two-digit year are read against.
    private var received: Date { Date(timeIntervalSince1970: responseTime) }

    /// The response's `Date`, when it is a valid HTTP-date.
    private func date(_ headers: HTTPHeaders) -> Date? {
        headers["Date"].flatMap { HTTPDate.parse($0, now: received) }
    }

    /// The response's age at `now`, in seconds (RFC 9111 §4.2.3). Of a list-valued `Age`
    /// (several lines, or one line a proxy joined) the first value counts (§5.1).
    func age(at now: Date) -> TimeInterval {
        let headers = httpHeaders
        let date = date(headers)?.timeIntervalSince1970 ?? responseTime
        let apparentAge = max(0, responseTime - date)
        let first = headers["Age"]?.split(separator: ",", omittingEmptySubsequences: false).first
        let ageValue = first.flatMap { Self.deltaSeconds(String($0)) } ?? 0
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

    /// A request field's value as `Vary` compares it (RFC 9111 §4.1): its lines combined into
    /// one list, each element trimmed and its inner whitespace folded, joined with ", "; the
    /// language, encoding and media-type lists lower-cased, since case means nothing in them;
    /// `Authorization` only as a hash, so no credential is written to disk. "" when absent.
    static func normalized(_ headers: HTTPHeaders, _ name: String) -> String {
        let lines = headers.values(for: name)
        guard !lines.isEmpty else { return "" }
        var value = lines.joined(separator: ",").split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }.joined(separator: ", ")
        if caseInsensitiveValues.contains(name) { value = value.lowercased() }
        guard name == "authorization", !value.isEmpty else { return value }
        return CacheStore.fileName(forKey: value, fileExtension: "")
    }

    /// Request fields whose values compare without regard to case.
    static let caseInsensitiveValues: Set<String> = [
        "accept", "accept-charset", "accept-encoding", "accept-language",
    ]

    /// The stored entry's identity: its URL, the request values it varies on, and whether it is
    /// a partial (`206`) response. Several entries may share a URL.
    var id: String {
        let variant = vary.sorted { $0.key < $1.key }.map { "\n\($0.key): \($0.value)" }.joined()
        return key + variant + (status == 206 ? "\npartial" : "")
    }

    /// The request fields every stored response varies on, whatever its `Vary` says: a
    /// response to one user's credentials is never served for another's.
    static let implicitVary = ["authorization"]

    /// Fields that describe one connection or the proxy on the way, never stored (RFC 9111
    /// §3.1, RFC 9110 §7.6.1).
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "transfer-encoding", "proxy-connection", "te", "trailer", "upgrade",
        "proxy-authenticate", "proxy-authentication-info", "proxy-authorization",
    ]

    /// `headers` without what a cache must not store: the hop-by-hop fields, the fields its
    /// `Connection` names, and the fields a qualified `no-cache` names.
    static func storable(_ headers: HTTPHeaders) -> HTTPHeaders {
        var dropped = hopByHop
        for value in headers.values(for: "Connection") {
            for name in value.split(separator: ",") {
                dropped.insert(name.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
        dropped.formUnion(CacheControl(headers).noCacheFields)
        return HTTPHeaders(
            headers.filter { !dropped.contains($0.name.lowercased()) }.map { ($0.name, $0.value) })
    }

    /// Fields an update (a `304`, a `200` to a `HEAD`) does not replace, because the stored
    /// body depends on them (RFC 9111 §3.2): its length and coding, and the part a stored `206`
    /// holds. A `200`'s `Content-Range` means nothing for its body and is updated like any field.
    var keptOnUpdate: Set<String> {
        status == 206
            ? ["content-length", "content-encoding", "content-range"]
            : ["content-length", "content-encoding"]
    }

    /// The stored header fields updated with those of a `304` (RFC 9111 §4.3.4), received at
    /// `now`: a `304` without `Date` is dated when it arrived (RFC 9110 §6.6.1). The `304`'s
    /// hop-by-hop fields and those its `Connection` names are not taken.
    mutating func merge(_ notModified: HTTPHeaders, receivedAt now: Date) {
        var notModified = Self.storable(notModified)
        if notModified["Date"] == nil { notModified.add(name: "Date", value: HTTPDate.format(now)) }
        let replaced = Set(notModified.map { $0.name.lowercased() }).subtracting(keptOnUpdate)
        var merged = headers.filter { ($0.first).map { !replaced.contains($0.lowercased()) } ?? false }
        for field in notModified where replaced.contains(field.name.lowercased()) {
            merged.append([field.name, field.value])
        }
        headers = merged
    }
}
