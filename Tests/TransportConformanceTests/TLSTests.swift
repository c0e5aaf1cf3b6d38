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
            #expect(error?.code == .tls)
            #expect(error?.category == .transport)
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
            case .urlsession:
                // Documented difference: URLSessionTransport has no custom-CA option on
                // Linux, so the self-signed server stays untrusted.
                let error = await expectCourierError(sut, request)
                #expect(error?.code == .tls)
            }
        }
    }
}
