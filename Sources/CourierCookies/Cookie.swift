import Foundation

/// One cookie as a jar keeps it (RFC 6265 §5.3).
public struct Cookie: Sendable, Hashable, Codable {
    /// The cookie's name.
    public var name: String
    /// The cookie's value.
    public var value: String
    /// The host (host-only cookie) or domain (domain cookie) it belongs to, lower-cased,
    /// without a leading dot.
    public var domain: String
    /// The path it is sent under.
    public var path: String
    /// Whether it goes back only to the exact host that set it (no `Domain` attribute).
    public var hostOnly: Bool
    /// Whether it is sent over https only.
    public var secure: Bool
    /// Whether scripts may not see it. An HTTP client sends it as any other cookie.
    public var httpOnly: Bool
    /// When it expires; `nil` for a session cookie, which lasts as long as its jar.
    public var expires: Date?
    /// When it was first stored: older cookies come first among equal paths.
    public var created: Date

    /// Creates a cookie.
    public init(
        name: String, value: String, domain: String, path: String = "/", hostOnly: Bool = true,
        secure: Bool = false, httpOnly: Bool = false, expires: Date? = nil, created: Date = Date()
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.path = path
        self.hostOnly = hostOnly
        self.secure = secure
        self.httpOnly = httpOnly
        self.expires = expires
        self.created = created
    }

    /// Whether it has expired at `now`.
    package func isExpired(at now: Date = Date()) -> Bool { expires.map { $0 <= now } ?? false }

    /// Whether it is sent with a request to `url` at `now` (RFC 6265 §5.4).
    package func matches(_ url: URL, at now: Date = Date()) -> Bool {
        guard let host = url.host?.lowercased(), !isExpired(at: now) else { return false }
        if secure, url.scheme?.lowercased() != "https" { return false }
        let hostMatches = hostOnly ? host == domain : CookieRules.domainMatches(host, domain)
        return hostMatches && CookieRules.pathMatches(CookieRules.requestPath(url), path)
    }
}

/// The parsing and matching rules of RFC 6265, kept apart from the jar's state.
enum CookieRules {
    /// Labels that stand for a registry rather than one owner, beyond single labels: a cookie
    /// may not be set for these domains. A short list of the most common ones, not the full
    /// public suffix list.
    static let registrySuffixes: Set<String> = [
        "co.uk", "org.uk", "ac.uk", "gov.uk", "com.au", "net.au", "org.au", "co.jp", "ne.jp",
        "co.nz", "com.br", "com.cn", "co.in", "co.kr", "com.mx", "co.za", "github.io",
    ]

    /// The largest name and value kept, together, in bytes (RFC 6265 §6.1's minimum).
    static let maxCookieBytes = 4096
    /// The most cookies kept per domain and in all (RFC 6265 §6.1's minimums); beyond them the
    /// oldest go first, so a server cannot grow a jar without bound.
    static let maxPerDomain = 50
    static let maxTotal = 3000

    /// Parses one `Set-Cookie` value received from `url` at `now` into the cookie to store,
    /// or `nil` when it must be ignored (RFC 6265 §5.2 and §5.3).
    static func parse(_ header: String, from url: URL, now: Date = Date()) -> Cookie? {
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        var parts = header.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let pair = parts.removeFirst()
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.utf8.count + value.utf8.count <= maxCookieBytes, isClean(name),
            isClean(value)
        else { return nil }
        var cookie = Cookie(name: name, value: value, domain: host, path: defaultPath(url), created: now)
        var maxAge: Date?
        var expires: Date?
        var domainAttribute: String?
        for part in parts {
            let attribute: String
            let argument: String
            if let index = part.firstIndex(of: "=") {
                attribute = part[..<index].trimmingCharacters(in: .whitespaces).lowercased()
                argument = part[part.index(after: index)...].trimmingCharacters(in: .whitespaces)
            } else {
                attribute = part.trimmingCharacters(in: .whitespaces).lowercased()
                argument = ""
            }
            switch attribute {
            case "expires": expires = parseDate(argument) ?? expires
            case "max-age":
                guard let seconds = Int(argument), argument.first == "-" || argument.first?.isNumber == true
                else { continue }
                maxAge = seconds <= 0 ? Date.distantPast : now.addingTimeInterval(TimeInterval(seconds))
            case "domain":
                guard !argument.isEmpty else { continue }
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                domainAttribute = domain
            case "path": cookie.path = argument.hasPrefix("/") ? argument : defaultPath(url)
            case "secure": cookie.secure = true
            case "httponly": cookie.httpOnly = true
            default: continue
            }
        }
        cookie.expires = maxAge ?? expires  // Max-Age wins over Expires (§5.3 step 3).
        if let domain = domainAttribute, !domain.isEmpty {
            if isRegistryDomain(domain) {
                guard domain == host else { return nil }  // a cookie for a whole TLD is refused
            } else {
                guard domainMatches(host, domain) else { return nil }
                cookie.domain = domain
                cookie.hostOnly = false
            }
        }
        // A Secure cookie is set only over https (RFC 6265bis §5.6 step 8).
        if cookie.secure, url.scheme?.lowercased() != "https" { return nil }
        return cookie
    }

    /// Whether `domain` is a bare top-level label or a known registry suffix.
    static func isRegistryDomain(_ domain: String) -> Bool {
        !domain.contains(".") || registrySuffixes.contains(domain)
    }

    /// RFC 6265 §5.1.3: `host` is `domain`, or a name under it (never an IP address).
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        return host.hasSuffix("." + domain) && !isIPAddress(host)
    }

    /// RFC 6265 §5.1.4: `path` is the cookie path or under it.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).first == "/"
    }

    /// The path part of `url` as sent, `/` when empty.
    static func requestPath(_ url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        return path.isEmpty ? "/" : path
    }

    /// RFC 6265 §5.1.4: the folder of the request path.
    static func defaultPath(_ url: URL) -> String {
        let path = requestPath(url)
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else {
            return "/"
        }
        return String(path[..<slash])
    }

    static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0.isNumber || $0 == "." })
    }

    /// No control characters or semicolons: a cookie must not alter the header it goes into.
    static func isClean(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == ";" }
    }

    /// `Expires` by RFC 6265's cookie-date algorithm (§5.1.1), which takes every HTTP-date form
    /// and the others servers send (no comma, no weekday, dashes, two-digit years).
    static func parseDate(_ text: String) -> Date? { CookieDate.parse(text) }
}
