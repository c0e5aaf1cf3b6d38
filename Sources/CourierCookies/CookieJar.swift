import CourierPrimitives
import Foundation

/// The cookies a `NetworkManager` keeps between requests (RFC 6265).
///
/// Every transport sends the jar's cookies for each URL it requests and stores every
/// `Set-Cookie` it receives, on each hop of a redirect too, so a cookie set by a `302` goes
/// to the next hop only when that hop's host and path match it. A jar lives in memory, or
/// in a file it reads when created and rewrites after every change.
///
/// ```swift
/// import Courier
/// import CourierURLSession
///
/// let jar = try CookieJar(file: URL(fileURLWithPath: "cookies.json"))
/// let manager = NetworkManager(transport: URLSessionTransport(), cookieJar: jar)
/// ```
///
/// Rules kept: domain and path matching, host-only cookies (no `Domain`), `Secure` (sent and
/// set over https only), `Max-Age` over `Expires`, and refusal of a `Domain` that is a bare
/// top-level label, a common registry suffix (`co.uk`), or a domain the host is not under.
/// A cookie over 4 KiB is refused; beyond 50 cookies for a domain or 3000 in all, the oldest go.
public final class CookieJar: Sendable {
    /// The file the jar is saved to, if any.
    package let file: URL?
    private let state: Locked<[Cookie]>

    /// Creates an empty jar in memory.
    public init() {
        file = nil
        state = Locked([])
    }

    /// Creates a jar saved in `file`, holding `cookies` less the expired ones. `Courier`'s
    /// `init(file:)` reads the file and calls this.
    package init(file: URL, holding cookies: [Cookie]) {
        self.file = file
        let now = Date()
        state = Locked(cookies.filter { !$0.isExpired(at: now) })
    }

    /// The cookies a jar file holds; none for a missing file.
    /// - Throws: what reading or decoding the file throws.
    package static func cookies(inFile file: URL) throws -> [Cookie] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode([Cookie].self, from: Data(contentsOf: file))
    }

    /// Every cookie held, expired ones excluded.
    public var cookies: [Cookie] {
        let now = Date()
        return state.withLock { $0.filter { !$0.isExpired(at: now) } }
    }

    /// The cookies to send to `url`: longest path first, then oldest first (RFC 6265 §5.4).
    public func cookies(for url: URL) -> [Cookie] {
        let now = Date()
        return state.withLock { $0.filter { $0.matches(url, at: now) } }
            .sorted { ($0.path.count, $1.created) > ($1.path.count, $0.created) }
    }

    /// The `Cookie` header value for `url`, or `nil` when no cookie goes there.
    public func cookieHeader(for url: URL) -> String? {
        let cookies = cookies(for: url)
        return cookies.isEmpty ? nil : cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Stores the cookies of `Set-Cookie` field values received from `url`; refused cookies
    /// are ignored, and a cookie that arrives already expired removes the one it names.
    ///
    /// Over plain http, a cookie that would replace or delete a `Secure` one (same name, a
    /// domain either way under the other's, a path under its path) is ignored: "leave secure
    /// cookies alone", RFC 6265bis §5.7, so that a network attacker cannot overwrite an https
    /// session.
    package func store(setCookie values: [String], for url: URL) {
        let parsed = values.compactMap { CookieRules.parse($0, from: url) }
        guard !parsed.isEmpty else { return }
        let secureScheme = url.scheme?.lowercased() == "https"
        let now = Date()
        // One lock and one save for the whole response: a response with thousands of `Set-Cookie`
        // fields wrote a file-backed jar thousands of times.
        state.withLock { cookies in
            for cookie in parsed {
                if !secureScheme, !cookie.secure, Self.shadowsSecureCookie(cookie, in: cookies) { continue }
                Self.insert(cookie, into: &cookies, now: now)
            }
            save(cookies)  // under the lock, so saves land in the order of the changes
        }
    }

    private static func shadowsSecureCookie(_ cookie: Cookie, in cookies: [Cookie]) -> Bool {
        cookies.contains { existing in
            existing.secure && existing.name == cookie.name
                && (CookieRules.domainMatches(existing.domain, cookie.domain)
                    || CookieRules.domainMatches(cookie.domain, existing.domain))
                && CookieRules.pathMatches(cookie.path, existing.path)
        }
    }

    /// Stores one cookie, replacing the one with its name, domain and path (and keeping that
    /// one's creation time). An expired cookie only removes its namesake.
    public func store(_ cookie: Cookie) {
        let now = Date()
        state.withLock { cookies in
            Self.insert(cookie, into: &cookies, now: now)
            save(cookies)  // under the lock, so saves land in the order of the changes
        }
    }

    private static func insert(_ cookie: Cookie, into cookies: inout [Cookie], now: Date) {
        var cookie = cookie
        if let index = cookies.firstIndex(where: {
            $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path
        }) {
            cookie.created = cookies[index].created
            cookies.remove(at: index)
        }
        if !cookie.isExpired(at: now) { cookies.append(cookie) }
        cookies.removeAll { $0.isExpired(at: now) }
        let sameDomain = cookies.filter { $0.domain == cookie.domain }
        if sameDomain.count > CookieRules.maxPerDomain,
            let oldest = sameDomain.min(by: { $0.created < $1.created })
        {
            cookies.removeAll { $0 == oldest }
        }
        if cookies.count > CookieRules.maxTotal, let oldest = cookies.min(by: { $0.created < $1.created }) {
            cookies.removeAll { $0 == oldest }
        }
    }

    /// Removes every cookie.
    public func removeAll() {
        state.withLock { cookies in
            cookies.removeAll()
            save(cookies)
        }
    }

    /// `explicit` (a `Cookie` header the caller set) joined with the jar's cookies for `url`.
    package func header(for url: URL, adding explicit: String?) -> String? {
        let explicit = explicit.flatMap { $0.isEmpty ? nil : $0 }
        guard let stored = cookieHeader(for: url), !stored.isEmpty else { return explicit }
        guard let explicit else { return stored }
        return explicit + "; " + stored
    }

    /// Best effort: a jar that cannot be saved still works in memory for this run.
    private func save(_ cookies: [Cookie]) {
        guard let file else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        try? encoder.encode(cookies).write(to: file, options: .atomic)
    }
}
