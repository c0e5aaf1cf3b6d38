import CCurlShim
import Courier
import CourierInterceptors
import CourierPrimitives
import Foundation
import MockServer
import TestSupport
import Testing

@testable import CourierCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct CurlErrorMappingTests {
    @Test(arguments: [
        (CURLE_COULDNT_RESOLVE_HOST, CourierError.Code.cannotResolveHost),
        (CURLE_COULDNT_CONNECT, .cannotConnect),
        (CURLE_OPERATION_TIMEDOUT, .timedOut),
        (CURLE_SSL_CONNECT_ERROR, .tls),
        (CURLE_PEER_FAILED_VERIFICATION, .tls),
        (CURLE_SSL_CACERT_BADFILE, .tls),
        (CURLE_SEND_ERROR, .connectionLost),
        (CURLE_RECV_ERROR, .connectionLost),
        (CURLE_GOT_NOTHING, .connectionLost),
        (CURLE_PARTIAL_FILE, .connectionLost),
        (CURLE_WEIRD_SERVER_REPLY, .connectionLost),
        (CURLE_TOO_MANY_REDIRECTS, .tooManyRedirects),
        (CURLE_FILESIZE_EXCEEDED, .responseTooLarge),
        (CURLE_URL_MALFORMAT, .invalidURL),
        (CURLE_ABORTED_BY_CALLBACK, .cancelled),
        (CURLE_WRITE_ERROR, .fileWriteFailed),
        (CURLE_READ_ERROR, .invalidBody),
        (CURLE_SEND_FAIL_REWIND, .invalidBody),
        (CURLE_UNSUPPORTED_PROTOCOL, .connectionLost),
        (CURLE_FAILED_INIT, .transferFailed),
        (CURLE_OUT_OF_MEMORY, .transferFailed),
        (CURLE_BAD_FUNCTION_ARGUMENT, .transferFailed),
        (CURLE_NOT_BUILT_IN, .invalidConfiguration),
        (CURLE_UNKNOWN_OPTION, .invalidConfiguration),
        (CURLE_INTERFACE_FAILED, .invalidConfiguration),
        (CURLE_PROXY, .cannotConnect),
        (CURLE_COULDNT_RESOLVE_PROXY, .cannotResolveHost),
        (CURLE_AUTH_ERROR, .transferFailed),
        (CURLcode(rawValue: 9999), .transferFailed),
    ])
    func codesMapToCourierCodes(result: CURLcode, expected: CourierError.Code) {
        #expect(CurlErrorMapping.code(for: result) == expected)
    }

    @Test func theMessageKeepsLibcurlsSummaryAndErrorBuffer() {
        let error = CurlErrorMapping.error(
            for: CURLE_COULDNT_CONNECT, errorBuffer: "Failed to connect to 127.0.0.1 port 9", request: nil)
        #expect(error.code == .cannotConnect)
        #expect(error.category == .transport)
        #expect(error.message.contains("Failed to connect to 127.0.0.1 port 9"))
        #expect(error.message.contains("curl error 7"))
    }

    /// Failures that a second attempt cannot fix: libcurl unable to start, a code Courier does
    /// not know. (A redirect to a scheme the transport does not speak is refused before
    /// libcurl sees it: `unsupportedProtocol`, tested end to end below.)
    @Test(arguments: [
        CURLE_FAILED_INIT, CURLE_OUT_OF_MEMORY, CURLE_NOT_BUILT_IN,
        CURLE_SEND_FAIL_REWIND, CURLcode(rawValue: 9999),
    ])
    func permanentFailuresAreNotRetryable(result: CURLcode) {
        #expect(!RetryPolicy.defaultRetryableCodes.contains(CurlErrorMapping.code(for: result)))
    }

    /// The same through RetryPolicy: the failing send is attempted once.
    @Test(arguments: [CURLE_FAILED_INIT, CURLcode(rawValue: 9999)])
    func retryPolicyAttemptsAPermanentFailureOnce(result: CURLcode) async throws {
        let attempts = Locked(0)
        let policy = RetryPolicy(maxAttempts: 5, random: { 0.5 }, sleep: { _ in })
        let urlRequest = URLRequest(url: URL(string: "http://127.0.0.1:1/x")!)
        let error = await #expect(throws: CourierError.self) {
            try await policy.intercept(
                TransportRequest(urlRequest: urlRequest),
                context: InterceptorContext(originalRequest: TransportRequest(urlRequest: urlRequest))
            ) { request in
                attempts.withLock { $0 += 1 }
                throw CurlErrorMapping.error(for: result, errorBuffer: "", request: request)
            }
        }
        #expect(error?.code == CurlErrorMapping.code(for: result))
        #expect(attempts.withLock { $0 } == 1)
    }

    /// End to end: a redirect to `ftp://` fails once, with `.unsupportedProtocol`, and the
    /// server sees one request although the policy allows five attempts.
    @Test func aRedirectToFTPIsNotRetried() async throws {
        let hits = Locked(0)
        let redirect = ClosureHandler { _ in
            hits.withLock { $0 += 1 }
            var response = ServerResponse.text("moved", status: 302)
            response.headers.add(name: "Location", value: "ftp://127.0.0.1:1/file")
            return response
        }
        try await withMockServer(handlers: [redirect]) { server in
            try await CurlTransport.with { transport in
                let policy = RetryPolicy(maxAttempts: 5, random: { 0.5 }, sleep: { _ in })
                let urlRequest = URLRequest(url: server.baseURL.appendingPathComponent("start"))
                let error = await #expect(throws: CourierError.self) {
                    try await policy.intercept(
                        TransportRequest(urlRequest: urlRequest),
                        context: InterceptorContext(originalRequest: TransportRequest(urlRequest: urlRequest))
                    ) { try await transport.sendThroughManager($0) }
                }
                #expect(error?.code == .unsupportedProtocol, "\(String(describing: error))")
                #expect(hits.withLock { $0 } == 1)
            }
        }
    }
}
