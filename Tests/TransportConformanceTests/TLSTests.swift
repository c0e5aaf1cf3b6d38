import Courier
import CourierCurl
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// HTTPS against nginx with a self-signed certificate and HTTP/2. nginx is required
/// (CI installs the Debian package); without it the test fails, it does not skip.
/// `.serialized`: each case starts its own nginx, and two cores are enough for one.
@Suite(.serialized) struct TLSTests {
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
            case .stub:
                Issue.record("TLS needs a socket; StubTransport is not in TransportUnderTest.all")
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
                let stream = BodyStream(length: nil) { ChunkedReader(payload, chunk: 10_000) }
                let stored = try await sut.send(TransportRequest(urlRequest: put, body: .stream(stream)))
                #expect(stored.status == 201)
                #expect(stored.httpVersion == "HTTP/2")
                let file = server.directory.appendingPathComponent("www/upload/streamed.bin")
                #expect(try Data(contentsOf: file) == payload)
            case .urlsession:
                // Documented difference: URLSessionTransport has no custom-CA option on
                // Linux, so the self-signed server stays untrusted.
                expectUntrustedOverURLSession(await expectCourierError(sut, request))
            case .stub:
                Issue.record("TLS needs a socket; StubTransport is not in TransportUnderTest.all")
            }
        }
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
