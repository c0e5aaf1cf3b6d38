import Courier
import CourierPrimitives
import CourierTesting
import Foundation
import MockServer
import TestSupport
import Testing

@testable import CourierCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A direct request's `User-Agent` and `Accept-Encoding` are lines the easy handles share, and
/// a request that may go through a proxy has its `User-Agent` as `CURLOPT_USERAGENT`: whichever,
/// each field goes out once, the request's own value replaces the transport's, and a reused
/// handle carries nothing of the request before it.
@Suite struct UserAgentAndProxyEnvironmentTests {
    /// Answers with every `User-Agent` and `Accept-Encoding` value that arrived, in order.
    private static let fields = ClosureHandler { request in
        func values(_ name: String) -> String {
            request.headers.fields.filter { $0.name.lowercased() == name }.map(\.value).joined(separator: "|")
        }
        return ServerResponse.text("ua=\(values("user-agent")) ae=\(values("accept-encoding"))", status: 200)
    }

    private func request(_ server: MockServer, _ headers: [String: String] = [:]) throws -> TransportRequest {
        var urlRequest = URLRequest(url: try #require(URL(string: server.baseURL.absoluteString + "/fields")))
        for (name, value) in headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        return TransportRequest(urlRequest: urlRequest)
    }

    private func text(_ response: TransportResponse) -> String {
        String(decoding: response.body.data, as: UTF8.self)
    }

    @Test func eachFieldGoesOutOnceOnEveryHandle() async throws {
        let offered = ContentDecoding.offered
        try await withMockServer(handlers: [Self.fields]) { server in
            // One connection and a handle reused for every request, in the order that switches lists.
            let configuration = CurlTransport.Configuration(
                maxConnectionsPerHost: 1, userAgent: "CourierTest/1")
            try await CurlTransport.with(configuration: configuration) { transport in
                let cases: [([String: String], String)] = [
                    ([:], "ua=CourierTest/1 ae=\(offered)"),
                    (["User-Agent": "Mine/2"], "ua=Mine/2 ae=\(offered)"),
                    ([:], "ua=CourierTest/1 ae=\(offered)"),
                    (["Accept-Encoding": "identity"], "ua=CourierTest/1 ae=identity"),
                    (["Accept-Encoding": "identity", "User-Agent": "Mine/3"], "ua=Mine/3 ae=identity"),
                    ([:], "ua=CourierTest/1 ae=\(offered)"),
                ]
                for (headers, expected) in cases {
                    let response = try await transport.send(try request(server, headers))
                    #expect(text(response) == expected, "\(headers)")
                }
            }
            // An empty User-Agent sends none, as libcurl does for an empty CURLOPT_USERAGENT.
            try await CurlTransport.with(configuration: .init(userAgent: "")) { transport in
                let response = try await transport.send(try request(server))
                #expect(text(response) == "ua= ae=\(offered)")
            }
        }
    }

    /// A transport `User-Agent` holding a line break is refused, with a typed error, on every request
    /// that would carry it, before a byte is sent: libcurl writes `CURLOPT_USERAGENT` into the head as
    /// it is, so it would have gone out as a second field. A request with its own `User-Agent` does
    /// not carry it, and goes.
    @Test func aUserAgentWithALineBreakIsRefusedNotSent() async throws {
        let arrived = Locked<[String]>([])
        let recording = ClosureHandler { request in
            let names = request.headers.fields.map { $0.name.lowercased() }
            arrived.withLock { $0.append(names.joined(separator: ",")) }
            let agent = request.headers.fields.first { $0.name.lowercased() == "user-agent" }?.value ?? ""
            return ServerResponse.text("ua=\(agent)", status: 200)
        }
        try await withMockServer(handlers: [recording]) { server in
            let configuration = CurlTransport.Configuration(userAgent: "Evil/1\r\nX-Injected: yes")
            try await CurlTransport.with(configuration: configuration) { transport in
                await #expect(throws: CourierError.self) {
                    _ = try await transport.send(try request(server))
                }
                do {
                    _ = try await transport.send(try request(server))
                    Issue.record("the request was sent")
                } catch let error as CourierError {
                    #expect(error.code == .invalidHeader)
                    #expect(error.request != nil)
                }
                #expect(arrived.withLock { $0 }.isEmpty, "nothing reaches the server")
                let own = try await transport.send(try request(server, ["User-Agent": "Mine/2"]))
                #expect(text(own) == "ua=Mine/2")
                #expect(arrived.withLock { $0 }.count == 1)
                #expect(arrived.withLock { $0 }.allSatisfy { !$0.contains("x-injected") })
            }
        }
    }

    /// The variables libcurl reads for http and https URLs, with its rules: `HTTP_PROXY` in
    /// upper case does not count, nor does an empty value.
    @Test(arguments: [
        ([:], false), (["http_proxy": "http://p:1"], true), (["HTTP_PROXY": "http://p:1"], false),
        (["https_proxy": "http://p:1"], true), (["HTTPS_PROXY": "http://p:1"], true),
        (["all_proxy": "socks5://p:1"], true), (["ALL_PROXY": "http://p:1"], true),
        (["http_proxy": ""], false), (["no_proxy": "*"], false), (["ftp_proxy": "http://p:1"], false),
    ])
    func theEnvironmentNamesAProxy(environment: [String: String], names: Bool) {
        #expect(ProxyEnvironment.namesProxy { environment[$0] } == names)
    }

    /// With no proxy configured, the environment read when the transport was made decides: none
    /// there, and the plan connects directly and tells libcurl to read no variables; one there,
    /// and libcurl is left to it. A configured proxy is used either way, and the environment's
    /// `no_proxy` is not read for it.
    @Test func thePlanConnectsDirectlyOnlyWhenNoProxyCanApply() throws {
        let request = TransportRequest(
            urlRequest: URLRequest(url: try #require(URL(string: "http://127.0.0.1:9/a"))))
        let direct = try CurlRequestPlan.make(
            for: request, configuration: .init(), environmentNamesProxy: false)
        #expect(direct.proxy == "")
        #expect(direct.isDirect && direct.ignoresProxyEnvironment)
        let fromEnvironment = try CurlRequestPlan.make(
            for: request, configuration: .init(), environmentNamesProxy: true)
        #expect(fromEnvironment.proxy == nil)
        #expect(!fromEnvironment.isDirect && !fromEnvironment.ignoresProxyEnvironment)
        let settings = try ProxySettings(url: "http://127.0.0.1:3128")
        for environment in [false, true] {
            let proxied = try CurlRequestPlan.make(
                for: request, configuration: .init(proxy: settings), environmentNamesProxy: environment)
            #expect(proxied.proxy == "http://127.0.0.1:3128")
            #expect(!proxied.isDirect && proxied.ignoresProxyEnvironment)
        }
        let bypassed = try CurlRequestPlan.make(
            for: request,
            configuration: .init(proxy: try ProxySettings(url: "http://127.0.0.1:3128", noProxy: ["*"])),
            environmentNamesProxy: true)
        #expect(bypassed.isDirect && bypassed.ignoresProxyEnvironment)
    }
}
