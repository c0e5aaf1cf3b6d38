import CCurlShim
import Courier
import Testing

@testable import CourierCurl

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
}
