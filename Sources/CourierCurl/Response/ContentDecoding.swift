import CCurlShim
import Courier
import Foundation

/// Whether libcurl can decode a response body's codings, decided when its head is complete.
///
/// libcurl decodes every coding it knows and fails the transfer on one it does not ("Unrecognized
/// content encoding type"), which servers do send (`Content-Encoding: utf-8`). A body with such a
/// coding is handed over as it came, with its header, as browsers do: the transfer turns off
/// `CURLOPT_HTTP_CONTENT_DECODING` before the first body byte (libcurl 7.x consults it as each
/// body byte is written; libcurl 8 builds its decoders as each header arrives and fails as before).
/// A list is decoded only when every coding of it can be.
enum ContentDecoding {
    /// The codings this libcurl decodes (`identity` and its alias `none` are no-ops).
    static let decodable: Set<String> = {
        var codings: Set<String> = ["identity", "none"]
        // `features` is in every age of the struct; CURLVERSION_NOW is a macro Swift cannot import.
        guard let info = curl_version_info(CURLVERSION_FIRST) else { return codings }
        let features = info.pointee.features
        if features & CURL_VERSION_LIBZ != 0 { codings.formUnion(["gzip", "x-gzip", "deflate"]) }
        if features & CURL_VERSION_BROTLI != 0 { codings.insert("br") }
        if features & CURL_VERSION_ZSTD != 0 { codings.insert("zstd") }
        return codings
    }()

    /// The `Accept-Encoding` value libcurl sends for `CURLOPT_ACCEPT_ENCODING` "" (every coding it
    /// decodes, in its own order), or "identity" when it decodes none.
    static let offered: String = {
        guard let info = curl_version_info(CURLVERSION_FIRST) else { return "identity" }
        let features = info.pointee.features
        var codings: [String] = []
        if features & CURL_VERSION_LIBZ != 0 { codings += ["deflate", "gzip"] }
        if features & CURL_VERSION_BROTLI != 0 { codings.append("br") }
        if features & CURL_VERSION_ZSTD != 0 { codings.append("zstd") }
        return codings.isEmpty ? "identity" : codings.joined(separator: ", ")
    }()

    /// Whether every coding of the head's `Content-Encoding` and `Transfer-Encoding` fields can be
    /// decoded (`chunked` only frames the body, and libcurl always removes it).
    static func canDecode(_ headers: HTTPHeaders, decodable: Set<String> = decodable) -> Bool {
        let codings = headers.values(for: "Content-Encoding") + headers.values(for: "Transfer-Encoding")
        return codings.allSatisfy { value in
            value.split(separator: ",").allSatisfy { token in
                let coding = token.trimmingCharacters(in: .whitespaces).lowercased()
                return coding.isEmpty || coding == "chunked" || decodable.contains(coding)
            }
        }
    }
}
