import Courier
import Foundation
import Testing

/// `NO_PROXY` matching and the checks made when proxy settings are created.
@Suite struct ProxySettingsTests {
    @Test(arguments: [
        // (noProxy, url, bypasses)
        (["*"], "http://anything.example:8080/x", true),
        (["example.com"], "http://example.com/", true),
        (["example.com"], "https://api.example.com/", true),
        (["example.com"], "http://notexample.com/", false),
        ([".example.com"], "http://example.com/", true),
        ([".example.com"], "http://a.b.example.com/", true),
        (["EXAMPLE.com"], "http://Api.Example.COM/", true),
        (["example.com:8080"], "http://example.com:8080/", true),
        (["example.com:8080"], "http://example.com/", false),
        (["example.com:443"], "https://example.com/", true),
        (["127.0.0.1"], "http://127.0.0.1:9/", true),
        (["0.0.1"], "http://127.0.0.1/", false),
        (["::1"], "http://[::1]:80/", true),
        (["[::1]:8080"], "http://[::1]:8080/", true),
        (["[::1]:8080"], "http://[::1]:8081/", false),
        ([String](), "http://localhost/", false),
        (["localhost", "internal"], "http://svc.internal/", true),
    ])
    func noProxyMatching(noProxy: [String], url: String, bypasses: Bool) throws {
        let settings = try ProxySettings(url: "http://proxy:3128", noProxy: noProxy)
        #expect(settings.bypasses(try #require(URL(string: url))) == bypasses)
    }

    @Test(arguments: ["", " ", "a,b", "host:port", "host:0", "host:70000", "10.0.0.0/8"])
    func malformedNoProxyEntriesAreRefused(entry: String) {
        let error = #expect(throws: CourierError.self) {
            try ProxySettings(url: "http://proxy:3128", noProxy: [entry])
        }
        #expect(error?.code == .invalidConfiguration)
    }

    @Test func kindPortAndDescription() throws {
        let socks = try ProxySettings(url: "socks5h://user:secret@127.0.0.1")
        #expect(socks.kind == .socks5h)
        #expect(socks.port == 1080)
        #expect(!socks.description.contains("secret"))
        let http = try ProxySettings(url: "HTTP://proxy")
        #expect(http.kind == .http)
        #expect(http.port == 80)
        #expect(throws: CourierError.self) { try ProxySettings(url: "http://proxy:3128/path") }
        #expect(throws: CourierError.self) { try ProxySettings(url: "http://") }
    }
}
