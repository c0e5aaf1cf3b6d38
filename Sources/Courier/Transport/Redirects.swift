import CourierCookies
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which request headers a redirect to another origin (scheme, host or port) drops.
///
/// The default, `.sensitive`, drops every header that `Redaction` hides in logs:
/// `Authorization`, `Proxy-Authorization`, `Cookie`, the `X-Api-Key` family, and any name
/// containing "token", "secret" or "password". Add your own secret headers with
/// `adding(_:)`:
///
/// ```swift
/// var options = TransferOptions()
/// options.crossOriginHeaderPolicy = .sensitive.adding(["X-Tenant-Signature"])
/// ```
public struct CrossOriginHeaderPolicy: Sendable, Hashable {
    private var names: Set<String>
    private var includesSensitive: Bool

    /// Every header `Redaction` treats as secret.
    public static let sensitive = CrossOriginHeaderPolicy(names: [], includesSensitive: true)

    /// Exactly these headers (case-insensitive), plus `Authorization`, `Proxy-Authorization`
    /// and `Cookie`, which never follow a redirect to another origin.
    public static func only(_ names: Set<String>) -> CrossOriginHeaderPolicy {
        CrossOriginHeaderPolicy(names: Set(names.map { $0.lowercased() }), includesSensitive: false)
    }

    /// This policy with more header names to drop (case-insensitive).
    public func adding(_ more: Set<String>) -> CrossOriginHeaderPolicy {
        var policy = self
        policy.names.formUnion(more.map { $0.lowercased() })
        return policy
    }

    /// Whether a redirect to another origin drops the header `name`.
    package func drops(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower == "authorization" || lower == "proxy-authorization" || lower == "cookie" { return true }
        return names.contains(lower) || (includesSensitive && Redaction.isSensitive(header: lower))
    }
}

/// Follows redirects above the transport, so that every transport, Courier's or another
/// package's, gets them the same way.
///
/// `NetworkManager` hands it each attempt's request, after the interceptors, and the
/// transport's one exchange as the hop: a transport never follows a redirect itself. The rules
/// are those of the Fetch standard and RFC 9110:
/// - 301, 302, 303, 307 and 308 with a `Location` are followed; other 3xx are returned.
/// - 303 turns any method but HEAD into GET without a body; 301 and 302 turn POST into GET
///   without a body. Every other method keeps its method **and** its body on every code.
///   A dropped body takes its `Content-Type`, `Content-Length`, `Content-Encoding`,
///   `Content-Language` and `Content-Location` headers with it.
/// - A body that must be re-sent is sent again from the start: data and files always can
///   be, a replayable stream is read again; a stream that is not replayable fails with
///   `.invalidBody` instead of sending nothing (nothing is spooled to disk).
/// - A redirect to another origin drops the headers of `TransferOptions.crossOriginHeaderPolicy`.
/// - With a `cookieJar`, each hop sends the jar's cookies for its own URL (after any `Cookie`
///   header the caller set, while that header is kept) and each response's `Set-Cookie`
///   fields are stored before the next hop is made, so cookies follow a redirect only to a
///   host and path they belong to. The transport sends the `Cookie` header it is given.
/// - A redirect's streamed body is cancelled unread.
/// - A `Location` that is not a URL fails with `.invalidURL`, one that is not http or https
///   with `.unsupportedProtocol` (neither is retried), and more than
///   `maxRedirects` hops with `.tooManyRedirects`; `maxRedirects` 0 returns the 3xx itself.
/// - `totalTimeout` is one budget for the whole chain, and the final response's timings
///   count from the first hop.
///
/// Before the first hop it refuses, with nothing sent, a method that is not a token (CR or LF
/// would smuggle a second request), a malformed header, and a HEAD request with a body. Later
/// hops change only the method, URL and headers it derives itself, so they are not checked
/// again.
package enum Redirects {
    /// The statuses that are followed.
    package static let followedStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Validates `request`, then sends it with `hop`, following redirects.
    ///
    /// - Parameters:
    ///   - request: the request as the caller gave it.
    ///   - hop: sends one request without following redirects.
    /// - Throws: `CourierError`: `.invalidParameters`, `.invalidHeader` or `.invalidURL` for a
    ///   request that cannot be sent; what `hop` throws; `.tooManyRedirects`, `.invalidURL`
    ///   or `.invalidBody` for a redirect that cannot be followed.
    nonisolated(nonsending) package static func send(
        _ request: TransportRequest, cookieJar: CookieJar? = nil,
        hop: nonisolated(nonsending) (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        try request.validateForSending()
        if request.method == .head, !isEmpty(request.body) {
            throw CourierError(
                .invalidBody, "a HEAD request cannot carry a body", request: request)
        }
        let replayable = request.body.isReplayable
        let started = ContinuousClock.now
        var current = request
        var hops = 0
        // The caller's own Cookie header, without the jar's cookies: dropped like any other
        // header by a redirect to another origin.
        var explicitCookie = request.headers["Cookie"]
        while true {
            let hopStarted = ContinuousClock.now
            if let total = request.options.totalTimeout {
                let left = total - (hopStarted - started)
                guard left > .zero else {
                    throw CourierError(
                        .timedOut, "the request took longer than \(total.timeInterval) s",
                        request: current)
                }
                // The first hop has the whole budget but for the instant since `started`: it goes
                // out unchanged, so its fields are not copied.
                if hops > 0 { current.options.totalTimeout = left }
            }
            var outgoing = current
            if let jar = cookieJar {
                if let cookie = jar.header(for: current.url, adding: explicitCookie) {
                    outgoing.headers.replaceOrAdd(name: "Cookie", value: cookie)
                } else if outgoing.headers.contains("Cookie") {
                    // Only when there is one: a change would copy the request's fields.
                    outgoing.headers.remove(name: "Cookie")
                }
            }
            var response = try await hop(outgoing)
            cookieJar?.store(from: response.headers, for: current.url)
            guard
                let next = try nextRequest(
                    after: response, of: current, original: request, bodyIsReplayable: replayable, hops: &hops
                )
            else {
                if hops > 0 {
                    response.timings = shifted(response.timings, by: (hopStarted - started).timeInterval)
                    response.timings.total = (ContinuousClock.now - started).timeInterval
                }
                return response
            }
            if case .stream(let body) = response.body { body.cancel() }
            current = next
            explicitCookie = next.headers["Cookie"]
        }
    }

    /// The request to send after `response`, or nil when `response` is the final one.
    static func nextRequest(
        after response: TransportResponse, of current: TransportRequest, original: TransportRequest,
        bodyIsReplayable: Bool, hops: inout Int
    ) throws -> TransportRequest? {
        guard followedStatuses.contains(response.status), original.options.maxRedirects > 0,
            let location = response.headers["Location"]
        else { return nil }
        let from = current.url
        let failure = { (code: CourierError.Code, message: String) in
            if case .stream(let body) = response.body { body.cancel() }
            return CourierError(
                code, message, request: current, status: response.status, headers: response.headers
            )
        }
        guard let target = URL(string: location, relativeTo: from)?.absoluteURL else {
            throw failure(.invalidURL, "the redirect Location \(location.debugDescription) is not a URL")
        }
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = target.host, !host.isEmpty
        else {
            throw failure(
                .unsupportedProtocol,
                "redirected to \(Redaction.redact(url: target)), which is not an http or https URL")
        }
        hops += 1
        guard hops <= original.options.maxRedirects else {
            throw failure(.tooManyRedirects, "more than \(original.options.maxRedirects) redirects")
        }

        var next = current
        let method = current.method
        let becomesGet =
            (response.status == 303 && method != .head)
            || ((response.status == 301 || response.status == 302) && method == .post)
        if becomesGet {
            next.method = .get
            next.body = .empty
            for name in [
                "Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location",
            ] {
                next.headers.remove(name: name)
            }
        } else if !bodyIsReplayable, !isEmpty(current.body) {
            throw failure(
                .invalidBody,
                "cannot follow the \(response.status) redirect: the \(method) body is a stream that cannot be replayed"
            )
        }
        if !sameOrigin(from, target) {
            let policy = original.options.crossOriginHeaderPolicy
            for name in Set(next.headers.map(\.name)) where policy.drops(name) {
                next.headers.remove(name: name)
            }
        }
        next.url = target
        return next
    }

    package static func isEmpty(_ body: RequestBody) -> Bool {
        switch body {
        case .empty: true
        case .data(let data): data.isEmpty
        default: false
        }
    }

    /// Whether two URLs share scheme, host and port (default ports filled in).
    package static func sameOrigin(_ a: URL?, _ b: URL?) -> Bool {
        guard let a, let b, let schemeA = a.scheme?.lowercased(), let schemeB = b.scheme?.lowercased() else {
            return false
        }
        return schemeA == schemeB && a.host?.lowercased() == b.host?.lowercased()
            && effectivePort(a, schemeA) == effectivePort(b, schemeB)
    }

    private static func effectivePort(_ url: URL, _ scheme: String) -> Int? {
        url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
    }

    /// The final hop's timings moved to count from the start of the first hop.
    private static func shifted(_ timings: Timings, by offset: TimeInterval) -> Timings {
        var timings = timings
        timings.dnsLookup = timings.dnsLookup.map { $0 + offset }
        timings.connect = timings.connect.map { $0 + offset }
        timings.tlsHandshake = timings.tlsHandshake.map { $0 + offset }
        timings.firstByte = timings.firstByte.map { $0 + offset }
        timings.redirect = offset
        return timings
    }
}

extension CookieJar {
    /// Stores the `Set-Cookie` fields of a response from `url`, as each hop does; refused
    /// cookies are ignored, and a cookie that arrives already expired removes the one it names.
    package func store(from headers: HTTPHeaders, for url: URL) {
        store(setCookie: headers.values(for: "Set-Cookie"), for: url)
    }
}
