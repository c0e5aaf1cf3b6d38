import CCurlShim
import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Maps a libcurl result to Courier's error codes.
enum CurlErrorMapping {
    /// The Courier code for a libcurl failure code.
    ///
    /// Only failures a second attempt may fix (resolution, connection, a broken or garbled
    /// exchange, a timeout) get a code that `RetryPolicy` retries by default. Anything
    /// permanent, and any code not listed here, gets one it does not retry.
    static func code(for result: CURLcode) -> CourierError.Code {
        switch result {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .cannotResolveHost
        case CURLE_COULDNT_CONNECT, CURLE_PROXY:
            return .cannotConnect
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT,
            CURLE_USE_SSL_FAILED:
            return .tls
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE,
            CURLE_WEIRD_SERVER_REPLY,
            CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3, CURLE_BAD_CONTENT_ENCODING:
            return .connectionLost
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects
        case CURLE_FILESIZE_EXCEEDED:
            return .responseTooLarge
        case CURLE_UNSUPPORTED_PROTOCOL:
            // libcurl follows no redirect (`Redirects` refuses an ftp:// Location itself) and
            // sends only http(s) URLs, so this is a reply that is not HTTP ("Received HTTP/0.9
            // when not allowed"): a broken reply, as URLSessionTransport reports it too.
            return .connectionLost
        case CURLE_URL_MALFORMAT:
            return .invalidURL
        case CURLE_READ_ERROR, CURLE_SEND_FAIL_REWIND:
            // A body that could not be read, or not rewound to be sent again (a redirect).
            return .invalidBody
        case CURLE_WRITE_ERROR:
            return .fileWriteFailed
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        case CURLE_NOT_BUILT_IN, CURLE_UNKNOWN_OPTION, CURLE_INTERFACE_FAILED:
            // This libcurl lacks something the settings ask for.
            return .invalidConfiguration
        default:
            // CURLE_FAILED_INIT, CURLE_OUT_OF_MEMORY, CURLE_BAD_FUNCTION_ARGUMENT and codes
            // this mapping does not know: nothing says a second attempt would fare better.
            return .transferFailed
        }
    }

    /// The error for a failed transfer, with libcurl's own explanation and the text of
    /// `CURLOPT_ERRORBUFFER` (which names the host, port and OS error) in the message.
    static func error(for result: CURLcode, errorBuffer: String, request: TransportRequest?) -> CourierError {
        let summary = String(cString: curl_easy_strerror(result))
        let detail = errorBuffer.isEmpty ? summary : "\(summary): \(errorBuffer)"
        return CourierError(code(for: result), "\(detail) (curl error \(result.rawValue))", request: request)
    }
}
