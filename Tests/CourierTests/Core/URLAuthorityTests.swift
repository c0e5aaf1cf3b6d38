import Courier
import Foundation
import Testing

/// `URLAuthority` reads the scheme, host and port from a URL's text; on every URL with a host it
/// must agree with Foundation's own parse.
struct URLAuthorityTests {
    @Test(arguments: [
        "http://example.com", "https://example.com/", "HTTPS://Example.COM:8443/a/b?c=d#e",
        "http://user:pass@host.test:81/path", "http://a@b@host.test/x", "http://127.0.0.1:18080/small.json",
        "http://[::1]:8080/x", "https://[fe80::1%25eth0]/", "http://h.test:/x", "http://h.test?q=1",
        "http://h.test#frag", "ws://socket.test/chat", "http://ex%41mple.test/", "http://h.test/a:b@c",
    ])
    func agreesWithFoundationOnURLsWithAHost(text: String) throws {
        let url = try #require(URL(string: text))
        let parts = try #require(url.authority)
        #expect(String(parts.scheme) == url.scheme)
        let host = parts.host.hasPrefix("[") ? parts.host.dropFirst().dropLast() : parts.host
        #expect(String(host) == url.host(percentEncoded: true))
        #expect(parts.port == url.port)
    }

    @Test(arguments: [
        "/relative/path", "relative", "mailto:someone@example.com", "file:///tmp/x", "http:/one-slash",
        "http://", "http:///path", "http://user@/path", "http://h.test:port/", "http://h.test:70000/",
        "http://[::1/", "1http://h.test/", "",
    ])
    func refusesTextWithoutAHostOrWithABadPort(text: String) {
        #expect(URLAuthority(text) == nil)
    }

    @Test func tellsHTTPFromHTTPSInAnyCase() {
        #expect(URLAuthority("http://h.test")?.isHTTPS == false)
        #expect(URLAuthority("HtTpS://h.test")?.isHTTPS == true)
        #expect(URLAuthority("httpx://h.test")?.isHTTPS == nil)
        #expect(URLAuthority("httpss://h.test")?.isHTTPS == nil)
        #expect(URLAuthority("ftp://h.test")?.isHTTPS == nil)
        #expect(URLAuthority("htt://h.test")?.isHTTPS == nil)
    }
}
