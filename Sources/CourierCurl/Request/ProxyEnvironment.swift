import Foundation

/// Whether the process environment names a proxy that libcurl would use for an http or https
/// URL when `CURLOPT_PROXY` is not set.
///
/// libcurl 7.88 looks the variables up on every transfer (`detect_proxy`, and `no_proxy` before
/// it): `http_proxy` (in lower case only: `HTTP_PROXY` can be set by a CGI request's `Proxy:`
/// header), `https_proxy` or `HTTPS_PROXY`, then `all_proxy` or `ALL_PROXY`; an empty value
/// counts as unset. When none is set, a transport reads them once, when it is created, and tells
/// libcurl to connect directly, so that a request neither looks them up again nor copies them,
/// and its `User-Agent` can be a shared header line (a proxy's CONNECT would not carry that).
enum ProxyEnvironment {
    static let variables = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]

    /// Whether any of `variables` has a value.
    /// - Parameter value: looks a variable up; the process environment by default.
    static func namesProxy(_ value: (String) -> String? = Self.processValue) -> Bool {
        variables.contains { !(value($0) ?? "").isEmpty }
    }

    static func processValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
