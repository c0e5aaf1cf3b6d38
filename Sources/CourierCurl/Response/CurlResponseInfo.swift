import CCurlShim
import Courier
import Foundation

/// Reads what libcurl measured about a finished transfer.
enum CurlResponseInfo {
    /// The timing breakdown from `CURLINFO_*_TIME_T` (microseconds), in seconds.
    /// An unmeasured phase (TLS on plain HTTP, redirects when none) is nil.
    static func timings(_ easy: UnsafeMutableRawPointer) -> Timings {
        func seconds(_ info: CURLINFO) -> TimeInterval? {
            var value: curl_off_t = 0
            guard ccurl_easy_getinfo_off_t(easy, info, &value) == CURLE_OK, value > 0 else { return nil }
            return TimeInterval(value) / 1_000_000
        }
        return Timings(
            dnsLookup: seconds(CURLINFO_NAMELOOKUP_TIME_T),
            connect: seconds(CURLINFO_CONNECT_TIME_T),
            tlsHandshake: seconds(CURLINFO_APPCONNECT_TIME_T),
            firstByte: seconds(CURLINFO_STARTTRANSFER_TIME_T),
            redirect: seconds(CURLINFO_REDIRECT_TIME_T),
            total: seconds(CURLINFO_TOTAL_TIME_T)
        )
    }

    /// The HTTP version of the last response, as "HTTP/1.1", "HTTP/2" or "HTTP/3".
    static func httpVersion(_ easy: UnsafeMutableRawPointer) -> String? {
        var value = 0
        guard ccurl_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &value) == CURLE_OK else { return nil }
        return versionName(value)
    }

    /// The name for a `CURL_HTTP_VERSION_*` value.
    static func versionName(_ value: Int) -> String? {
        switch value {
        case Int(CURL_HTTP_VERSION_1_0): "HTTP/1.0"
        case Int(CURL_HTTP_VERSION_1_1): "HTTP/1.1"
        case Int(CURL_HTTP_VERSION_2_0): "HTTP/2"
        case Int(CURL_HTTP_VERSION_3): "HTTP/3"
        default: nil
        }
    }

    /// The status code of the last response.
    static func status(_ easy: UnsafeMutableRawPointer) -> Int? {
        var value = 0
        guard ccurl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &value) == CURLE_OK, value > 0 else {
            return nil
        }
        return value
    }

    /// The URL that answered, after redirects. When it is the URL that was asked for
    /// (`requested`, as text), `requestedURL` is returned rather than parsed again.
    static func effectiveURL(_ easy: UnsafeMutableRawPointer, requested: String, requestedURL: URL?) -> URL? {
        var pointer: UnsafePointer<CChar>?
        guard ccurl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &pointer) == CURLE_OK, let pointer
        else {
            return nil
        }
        if let requestedURL, requested.withCString({ strcmp($0, pointer) == 0 }) { return requestedURL }
        return URL(string: String(cString: pointer))
    }

    /// How long after its start libcurl began the transfer on a connection, or nil while it has
    /// not: it waits in libcurl's own queue for a connection, or is still connecting
    /// (`CURLINFO_PRETRANSFER_TIME_T`, which libcurl zeroes when a transfer starts and sets just
    /// before the request goes out).
    static func pretransferTime(_ easy: UnsafeMutableRawPointer) -> Duration? {
        var microseconds: curl_off_t = 0
        guard ccurl_easy_getinfo_off_t(easy, CURLINFO_PRETRANSFER_TIME_T, &microseconds) == CURLE_OK,
            microseconds > 0
        else { return nil }
        return .microseconds(microseconds)
    }

    /// Bytes moved in each direction (after decoding for downloads).
    static func byteCounts(_ easy: UnsafeMutableRawPointer) -> (uploaded: Int64, downloaded: Int64) {
        var up: curl_off_t = 0
        var down: curl_off_t = 0
        _ = ccurl_easy_getinfo_off_t(easy, CURLINFO_SIZE_UPLOAD_T, &up)
        _ = ccurl_easy_getinfo_off_t(easy, CURLINFO_SIZE_DOWNLOAD_T, &down)
        return (Int64(up), Int64(down))
    }
}
