import Courier
import CourierConfiguration
import CourierCurl
import CourierTesting
import CourierURLSession
import Foundation
import MockServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An explicit proxy carries the traffic (the recording proxy saw it), `noProxy` hosts bypass
/// it, and URLSessionTransport refuses what FoundationNetworking would ignore.
@Suite(.blocksItsThread) struct ProxyTests {
    /// An `http://` request through an HTTP proxy goes in absolute form and comes back intact.
    @Test func curlForwardsPlainHTTPThroughAnHTTPProxy() async throws {
        let proxy = try RecordingProxy()
        defer { proxy.stop() }
        try await withConformanceServer { server in
            let settings = try ProxySettings(url: proxy.url)
            try await CurlTransport.with(configuration: .init(proxy: settings)) { sut in
                let echo = try await sut.send(
                    TransportRequest(urlRequest: try server.request("/echo/via?x=1"))
                )
                .echo()
                #expect(echo.target == "/echo/via?x=1")
            }
            #expect(
                proxy.entries == [
                    .init(
                        kind: .forward, target: "127.0.0.1:\(server.port)",
                        requestLine: "GET http://127.0.0.1:\(server.port)/echo/via?x=1 HTTP/1.1",
                        userAgents: [CurlTransport.Configuration().userAgent])
                ])
        }
    }

    /// Credentials in the proxy URL go to the proxy as `Proxy-Authorization`, for a forwarded
    /// request and for a tunnel alike.
    @Test func curlSendsTheProxyURLsCredentialsToTheProxy() async throws {
        let proxy = try RecordingProxy()
        defer { proxy.stop() }
        try await withConformanceServer { server in
            let settings = try ProxySettings(url: "http://user:s3cret@127.0.0.1:\(proxy.port)")
            #expect(!settings.description.contains("s3cret"))
            try await CurlTransport.with(configuration: .init(proxy: settings)) { sut in
                let echo = try await sut.send(TransportRequest(urlRequest: try server.request("/echo/auth")))
                    .echo()
                #expect(echo.header("Proxy-Authorization") == nil, "the proxy keeps its credentials")
            }
            let expected = "Basic " + Data("user:s3cret".utf8).base64EncodedString()
            #expect(proxy.entries.map(\.proxyAuthorization) == [expected])
        }
    }

    /// Both SOCKS5 flavours: `socks5` sends the address the client resolved, `socks5h` the
    /// host name for the proxy to resolve.
    @Test(arguments: [false, true])
    func curlConnectsThroughSOCKS5(proxyResolves: Bool) async throws {
        let proxy = try RecordingProxy()
        defer { proxy.stop() }
        try await withConformanceServer { server in
            let settings = try ProxySettings(url: proxyResolves ? proxy.socksHostnameURL : proxy.socksURL)
            try await CurlTransport.with(configuration: .init(proxy: settings)) { sut in
                let url = try #require(URL(string: "http://localhost:\(server.port)/echo/socks"))
                let request = TransportRequest(urlRequest: URLRequest(url: url), body: .data(Data("hi".utf8)))
                let echo = try await sut.send(request).echo()
                #expect(echo.path == "/echo/socks")
                #expect(echo.bodyData == Data("hi".utf8))
            }
            let host = proxyResolves ? "localhost" : "127.0.0.1"
            #expect(proxy.entries.map(\.kind) == [.socks5])
            #expect(proxy.entries.map(\.target) == ["\(host):\(server.port)"])
        }
    }

    /// Which `noProxy` entries send a request to 127.0.0.1:PORT straight to the server.
    @Test(arguments: [
        (["127.0.0.1"], true), (["*"], true), (["127.0.0.1:{PORT}"], true),
        (["example.com", "127.0.0.1"], true),
        (["127.0.0.1:1"], false), (["example.com"], false), (["0.0.1"], false), ([], false),
    ])
    func noProxyHostsBypassTheProxy(noProxy: [String], bypasses: Bool) async throws {
        let proxy = try RecordingProxy()
        defer { proxy.stop() }
        try await withConformanceServer { server in
            let entries = noProxy.map { $0.replacingOccurrences(of: "{PORT}", with: String(server.port)) }
            let settings = try ProxySettings(url: proxy.url, noProxy: entries)
            try await CurlTransport.with(configuration: .init(proxy: settings)) { sut in
                let response = try await sut.send(
                    TransportRequest(urlRequest: try server.request("/echo/np")))
                #expect(response.status == 200)
            }
            #expect(proxy.entries.isEmpty == bypasses, "\(entries): \(proxy.entries)")
        }
    }

    /// A proxy that is not there fails the request: nothing silently goes direct.
    @Test func anUnreachableProxyFailsTheRequest() async throws {
        try await LoopbackPort.withRefusingPort { port in
            try await withConformanceServer { server in
                let settings = try ProxySettings(url: "http://127.0.0.1:\(port)")
                try await CurlTransport.with(configuration: .init(proxy: settings)) { sut in
                    let error = await expectCourierError(
                        sut, TransportRequest(urlRequest: try server.request("/echo/none")))
                    #expect(error?.code == .cannotConnect, "\(String(describing: error))")
                }
            }
        }
    }

    /// FoundationNetworking on Linux ignores `connectionProxyDictionary`: the setting is
    /// refused when the transport is made, not ignored on every request.
    @Test func urlSessionRefusesAnExplicitProxyOnLinux() throws {
        let settings = try ProxySettings(url: "http://127.0.0.1:3128")
        #if canImport(FoundationNetworking)
            let error = #expect(throws: CourierError.self) {
                try URLSessionTransport(configuration: .init(proxy: settings))
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.contains("connectionProxyDictionary") == true)
        #else
            _ = try URLSessionTransport(configuration: .init(proxy: settings))
        #endif
    }

    /// `courier.json`'s `proxy` reaches the transport the configuration makes: CurlTransport
    /// uses it; URLSession on Linux refuses it when the transport is made.
    @Test func theConfigurationFilesProxyReachesTheTransport() async throws {
        let proxy = try RecordingProxy()
        defer { proxy.stop() }
        try await withConformanceServer { server in
            let json =
                #"{ "transport": "curl", "proxy": { "url": "\#(proxy.url)", "noProxy": ["example.com"] } }"#
            let configuration = try Configuration.decode(Data(json.utf8))
            #expect(configuration.proxy?.noProxy == ["example.com"])
            let transport = try configuration.makeTransport(choosingFrom: [
                CurlTransport.self, URLSessionTransport.self,
            ])
            let response = try await transport.send(
                TransportRequest(urlRequest: try server.request("/echo/cfg")))
            await transport.shutdown()
            #expect(response.status == 200)
            #expect(proxy.entries.map(\.kind) == [.forward])
            var urlSession = configuration
            urlSession.transport = .urlsession
            #if canImport(FoundationNetworking)
                let error = #expect(throws: CourierError.self) {
                    try urlSession.makeTransport(choosingFrom: [URLSessionTransport.self])
                }
                #expect(error?.code == .invalidConfiguration)
            #endif
        }
    }

    @Test(arguments: [
        #"{ "proxy": { "url": "ftp://127.0.0.1" } }"#,
        #"{ "proxy": { "url": "http://p:1", "noProxi": [] } }"#,
        #"{ "proxy": { "url": "http://p:1", "noProxy": ["a b"] } }"#, #"{ "proxy": {} }"#,
    ])
    func aBadProxyInTheConfigurationFileIsRefused(json: String) {
        let error = #expect(throws: CourierError.self) { try Configuration.decode(Data(json.utf8)) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("proxy") == true, "\(String(describing: error))")
    }

    /// Kinds no transport speaks are refused when the settings are made.
    @Test(arguments: [
        "https://127.0.0.1:3128", "ftp://127.0.0.1", "socks4://127.0.0.1:1080", "127.0.0.1:3128",
    ])
    func unsupportedProxyKindsAreRefused(url: String) {
        let error = #expect(throws: CourierError.self) { try ProxySettings(url: url) }
        #expect(error?.code == .invalidConfiguration)
    }
}
