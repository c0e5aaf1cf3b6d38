import CCurlShim
import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Maps a libcurl result to Courier's error codes.
enum CurlErrorMapping {
    /// The Courier code for a libcurl failure code.
    static func code(for result: CURLcode) -> CourierError.Code {
        switch result {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .cannotResolveHost
        case CURLE_COULDNT_CONNECT:
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
            // The request plan sends only http and https, so this is libcurl refusing the reply
            // ("Received HTTP/0.9 when not allowed"): garbage from the server, not a bad URL.
            return .connectionLost
        case CURLE_URL_MALFORMAT:
            return .invalidURL
        case CURLE_READ_ERROR:
            return .invalidBody
        case CURLE_WRITE_ERROR:
            return .fileWriteFailed
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        default:
            return .connectionLost
        }
    }

    /// The error for a failed transfer, with libcurl's own explanation and the text of
    /// `CURLOPT_ERRORBUFFER` (which names the host, port and OS error) in the message.
    static func error(for result: CURLcode, errorBuffer: String, request: URLRequest?) -> CourierError {
        let summary = String(cString: curl_easy_strerror(result))
        let detail = errorBuffer.isEmpty ? summary : "\(summary): \(errorBuffer)"
        return CourierError(code(for: result), "\(detail) (curl error \(result.rawValue))", request: request)
    }
}
