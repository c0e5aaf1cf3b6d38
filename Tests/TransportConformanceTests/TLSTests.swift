import Courier
import CourierCurl
import CourierPrimitives
import CourierTesting
import CourierURLSession
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// HTTPS against nginx with a self-signed certificate and HTTP/2. nginx is required
/// (CI installs the Debian package); without it the test fails, it does not skip.
/// `.serialized`: each case starts its own nginx, and two cores are enough for one.
@Suite(.blocksItsThread, .serialized) struct TLSTests {
    @Test(arguments: TransportUnderTest.all)
    func anUntrustedCertificateFailsWithTheTLSCategory(transport: TransportUnderTest) async throws {
        let nginx = try #require(NginxTLSServer.nginxPath, "nginx is not installed (apt-get install nginx)")
        let server = try NginxTLSServer(nginx: nginx)
        defer { server.stop() }
        try await transport.with { sut in
            let url = try #require(server.url("/"))
            let error = await expectCourierError(sut, TransportRequest(urlRequest: URLRequest(url: url)))
            #expect(error?.category == .transport)
            switch transport.kind {
            case .curl:
                #expect(error?.code == .tls, "\(String(describing: error))")
            case .urlsession:
                expectUntrustedOverURLSession(error)
            case .stub, .other:
                Issue.record("TLS needs a socket; only CurlTransport and URLSessionTransport run this")
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func theCustomCAOptionTrustsTheServer(transport: TransportUnderTest) async throws {
        let nginx = try #require(NginxTLSServer.nginxPath, "nginx is not installed (apt-get install nginx)")
        let server = try NginxTLSServer(nginx: nginx)
        defer { server.stop() }
        try await transport.with(caBundle: server.caBundle) { sut in
            let url = try #require(server.url("/"))
            let request = TransportRequest(urlRequest: URLRequest(url: url))
            switch transport.kind {
            case .curl:
                let response = try await sut.send(request)
                #expect(response.status == 200)
                #expect(response.body.data == Data("courier tls ok\n".utf8))
                #expect(response.httpVersion == "HTTP/2", "nginx offers h2 over TLS and libcurl takes it")
                #expect(response.timings.tlsHandshake != nil)
                // A body of unknown length over HTTP/2, where chunked coding does not exist.
                let payload = Pattern.bytes(offset: 0, count: 300_000)
                var put = URLRequest(url: try #require(server.url("/upload/streamed.bin")))
                put.httpMethod = "PUT"
                let stream = BodyStream(length: nil) { PieceReader(payload, piece: 10_000) }
                let stored = try await sut.send(TransportRequest(urlRequest: put, body: .stream(stream)))
                #expect(stored.status == 201)
                #expect(stored.httpVersion == "HTTP/2")
                let file = server.directory.appendingPathComponent("www/upload/streamed.bin")
                let onDisk = try Data(contentsOf: file)
                // One Bool: on a mismatch Swift Testing would diff the two buffers, which takes minutes.
                #expect(Bool(onDisk == payload), "\(onDisk.count) bytes stored of \(payload.count) sent")
            case .urlsession:
                // Documented difference: URLSessionTransport has no custom-CA option on
                // Linux, so the self-signed server stays untrusted.
                expectUntrustedOverURLSession(await expectCourierError(sut, request))
            case .stub, .other:
                Issue.record("TLS needs a socket; only CurlTransport and URLSessionTransport run this")
            }
        }
    }
}

/// Public-key pinning and HTTPS through a proxy, against the same nginx.
@Suite(.blocksItsThread, .serialized) struct TLSPinningAndProxyTests {
    /// A right pin lets the request through; a wrong one fails with `.tls`, though the CA
    /// bundle trusts the certificate.
    @Test(arguments: [true, false])
    func curlChecksThePinnedPublicKey(rightPin: Bool) async throws {
        let nginx = try #require(NginxTLSServer.nginxPath, "nginx is not installed (apt-get install nginx)")
        let server = try NginxTLSServer(nginx: nginx)
        defer { server.stop() }
        let pin =
            rightPin
            ? try server.publicKeyPin() : try PublicKeyPin("sha256//" + Data(count: 32).base64EncodedString())
        let configuration = CurlTransport.Configuration(caBundle: server.caBundle, pinnedPublicKeys: [pin])
        try await CurlTransport.with(configuration: configuration) { sut in
            let request = TransportRequest(urlRequest: URLRequest(url: try #require(server.url("/"))))
            if rightPin {
                let response = try await sut.send(request)
                #expect(response.body.data == Data("courier tls ok\n".utf8))
            } else {
                let error = await expectCourierError(sut, request)
                #expect(error?.code == .tls, "\(String(describing: error))")
                #expect(error?.message.contains("pinned") == true, "\(String(describing: error))")
            }
        }
    }

    /// An `https://` request through an HTTP proxy goes through a CONNECT tunnel, with TLS
    /// (and the pin) end to end. The CONNECT carries the transport's `User-Agent`, once: a
    /// request that may go through a proxy has it as `CURLOPT_USERAGENT`, which libcurl also
    /// sends to the proxy (the header list goes to the server only).
    @Test func curlTunnelsHTTPSThroughAnHTTPProxy() async throws {
        let nginx = try #require(NginxTLSServer.nginxPath, "nginx is not installed (apt-get install nginx)")
        let server = try NginxTLSServer(nginx: nginx)
        defer { server.stop() }
        let proxy = try RecordingProxy()
        defer { proxy.stop() }
        let configuration = CurlTransport.Configuration(
            caBundle: server.caBundle, userAgent: "CourierTunnel/1", proxy: try ProxySettings(url: proxy.url),
            pinnedPublicKeys: [try server.publicKeyPin()])
        try await CurlTransport.with(configuration: configuration) { sut in
            let request = TransportRequest(urlRequest: URLRequest(url: try #require(server.url("/"))))
            let response = try await sut.send(request)
            #expect(response.body.data == Data("courier tls ok\n".utf8))
        }
        #expect(proxy.entries.map(\.kind) == [.connect])
        #expect(proxy.entries.map(\.target) == ["127.0.0.1:\(server.port)"])
        #expect(proxy.entries.map(\.userAgents) == [["CourierTunnel/1"]])
    }

    /// Through a tunnel, the status a caller sees is the server's, never the proxy's
    /// `200 Connection established`: for a streamed head, and for a body going to a file (whose
    /// destination is opened on the final head).
    @Test func curlReportsTheServersStatusThroughATunnel() async throws {
        let nginx = try #require(NginxTLSServer.nginxPath, "nginx is not installed (apt-get install nginx)")
        let server = try NginxTLSServer(nginx: nginx)
        defer { server.stop() }
        let proxy = try RecordingProxy()
        defer { proxy.stop() }
        let configuration = CurlTransport.Configuration(
            caBundle: server.caBundle, proxy: try ProxySettings(url: proxy.url))
        try await CurlTransport.with(configuration: configuration) { sut in
            let missing = try #require(server.url("/status/404"))
            let streamed = try await sut.stream(TransportRequest(url: missing))
            #expect(streamed.head.status == 404)
            streamed.body.cancel()

            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "courier-tunnel-\(UUID())")
            defer { try? FileManager.default.removeItem(at: file) }
            let saved = try await NetworkManager(transport: sut).download(
                URLRequest(url: try #require(server.url("/"))), to: file)
            #expect(saved.status == 200)
            #expect(try Data(contentsOf: file) == Data("courier tls ok\n".utf8))
            var request = TransportRequest(url: missing)
            request.options.delivery = .streamed
            let head = try await sut.send(request)
            #expect(head.status == 404, "the head handed over is the server's, not the tunnel's")
        }
    }

    /// URLSession has no server-trust hook on Linux: a pin is refused when the transport is made.
    @Test func urlSessionRefusesAPin() throws {
        let pin = try PublicKeyPin("sha256//" + Data(count: 32).base64EncodedString())
        let error = #expect(throws: CourierError.self) {
            try URLSessionTransport(configuration: .init(pinnedPublicKeys: [pin]))
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("pin") == true)
    }

    @Test(arguments: [
        "", "sha256//", "sha256//not base64!", "sha1//AAAA",
        "sha256//" + Data(count: 20).base64EncodedString(),
    ])
    func malformedPinsAreRefused(text: String) {
        let error = #expect(throws: CourierError.self) { try PublicKeyPin(text) }
        #expect(error?.code == .invalidConfiguration)
    }
}

/// FoundationNetworking on Linux reports an untrusted certificate as `URLError(-1)`
/// ("unknown") with libcurl's "SSL certificate problem" text; URLSessionTransport's
/// mapping recognises that text, so the category and code match CurlTransport's.
private func expectUntrustedOverURLSession(
    _ error: CourierError?, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(error?.code == .tls, "\(String(describing: error))", sourceLocation: sourceLocation)
    #expect(error?.message.contains("certificate") == true, sourceLocation: sourceLocation)
}
