import CourierCookies
import Foundation
import Testing

@testable import Courier

@Suite("CookieJar")
struct CookieJarTests {
    static let site = URL(string: "https://www.example.com/account/login")!

    static func jar(_ setCookies: String..., from url: URL = site) -> CookieJar {
        let jar = CookieJar()
        jar.store(from: HTTPHeaders(setCookies.map { ("Set-Cookie", $0) }), for: url)
        return jar
    }

    @Test(
        "which requests a cookie goes to",
        arguments: [
            // (Set-Cookie from https://www.example.com/account/login, request URL, sent?)
            ("a=1", "https://www.example.com/account/x", true),
            ("a=1", "https://www.example.com/other", false),  // default path /account
            ("a=1", "https://api.www.example.com/account/x", false),  // host-only
            ("a=1; Domain=example.com; Path=/", "https://api.example.com/", true),
            ("a=1; Domain=.example.com; Path=/", "https://example.com/", true),
            ("a=1; Domain=example.com; Path=/", "https://badexample.com/", false),
            ("a=1; Path=/acc", "https://www.example.com/account", false),  // not a path boundary
            ("a=1; Path=/account", "https://www.example.com/account/deep/x", true),
            ("a=1; Path=/; Secure", "http://www.example.com/", false),
            ("a=1; Path=/; Secure", "https://www.example.com/", true),
            ("a=1; Path=/; HttpOnly", "https://www.example.com/", true),
        ])
    func matching(setCookie: String, request: String, sent: Bool) {
        let jar = Self.jar(setCookie)
        #expect((jar.cookieHeader(for: URL(string: request)!) == "a=1") == sent, "\(setCookie) → \(request)")
    }

    @Test(
        "refused cookies",
        arguments: [
            "a=1; Domain=com", "a=1; Domain=.com", "a=1; Domain=co.uk", "a=1; Domain=other.org",
            "a=1; Domain=ww.example.com", "noequals", "=1", "a=1; Max-Age=0",
        ])
    func refused(setCookie: String) {
        #expect(Self.jar(setCookie).cookies.isEmpty, "\(setCookie) was stored")
    }

    @Test("a Secure cookie is not set over http; a single-label host may name itself")
    func secureAndSingleLabel() {
        #expect(Self.jar("a=1; Secure", from: URL(string: "http://www.example.com/")!).cookies.isEmpty)
        let local = Self.jar("a=1; Domain=localhost", from: URL(string: "http://localhost/")!)
        #expect(local.cookies.first?.hostOnly == true)
    }

    @Test("Max-Age wins over Expires, in either order; a past Expires deletes")
    func expiry() {
        let past = "Expires=Wed, 21 Oct 2015 07:28:00 GMT"
        #expect(Self.jar("a=1; \(past); Max-Age=60").cookies.count == 1)
        #expect(Self.jar("a=1; Max-Age=60; \(past)").cookies.count == 1)
        #expect(Self.jar("a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Max-Age=-1").cookies.isEmpty)
        #expect(Self.jar("a=1; Expires=Wed, 21-Oct-2099 07:28:00 GMT").cookies.first?.expires != nil)
        let jar = Self.jar("a=1; Path=/")
        jar.store(from: ["Set-Cookie": "a=gone; Path=/; \(past)"], for: Self.site)
        #expect(jar.cookies.isEmpty, "an expired namesake removes the cookie")
    }

    @Test("a newer cookie replaces its namesake; longer paths come first")
    func replaceAndOrder() {
        let jar = Self.jar("a=1; Path=/", "b=2; Path=/account", "a=3; Path=/")
        #expect(jar.cookieHeader(for: URL(string: "https://www.example.com/account/x")!) == "b=2; a=3")
    }

    @Test("a server cannot grow the jar without bound: 4 KiB per cookie, 50 per domain")
    func limits() {
        #expect(Self.jar("a=" + String(repeating: "x", count: 5000)).cookies.isEmpty)
        let jar = CookieJar()
        let flood = HTTPHeaders((0..<500).map { ("Set-Cookie", "c\($0)=v; Path=/") })
        jar.store(from: flood, for: Self.site)
        #expect(jar.cookies.count == 50)
        #expect(jar.cookies.contains { $0.name == "c499" }, "the newest is kept")
    }

    @Test("a jar saved to a file is read back; a file that is not a jar is refused")
    func persistence() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jar-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try CookieJar(file: file).store(
            from: ["Set-Cookie": "sid=abc; Path=/; Max-Age=3600; HttpOnly"], for: Self.site)
        let reread = try CookieJar(file: file)
        #expect(reread.cookieHeader(for: Self.site) == "sid=abc")
        #expect(reread.cookies.first?.httpOnly == true)
        try Data("{oops".utf8).write(to: file)
        let error = #expect(throws: CourierError.self) { try CookieJar(file: file) }
        #expect(error?.code == .invalidConfiguration)
    }

    /// Plain http cannot replace or delete a Secure cookie (RFC 6265bis §5.7); https can, and
    /// other cookies over http are stored as before.
    @Test("leave secure cookies alone")
    func secureCookiesAreLeftAlone() {
        let plain = URL(string: "http://www.example.com/account/x")!
        let jar = Self.jar("session=abc; Path=/; Secure", "theme=dark; Path=/")
        jar.store(
            from: HTTPHeaders([
                ("Set-Cookie", "session=evil; Path=/"), ("Set-Cookie", "session=; Path=/account; Max-Age=0"),
                ("Set-Cookie", "session=sub; Domain=example.com; Path=/"),
                ("Set-Cookie", "theme=light; Path=/"),
                ("Set-Cookie", "other=1; Path=/"),
            ]), for: plain)
        #expect(
            jar.cookieHeader(for: URL(string: "https://www.example.com/")!)
                == "session=abc; theme=light; other=1")
        jar.store(from: HTTPHeaders([("Set-Cookie", "session=new; Path=/; Secure")]), for: Self.site)
        #expect(
            jar.cookieHeader(for: URL(string: "https://www.example.com/")!)
                == "session=new; theme=light; other=1")
        jar.store(from: HTTPHeaders([("Set-Cookie", "session=; Path=/; Max-Age=0")]), for: Self.site)
        #expect(jar.cookieHeader(for: URL(string: "https://www.example.com/")!) == "theme=light; other=1")
    }
}
