import CCurlShim
import Courier

/// Placeholder until the libcurl transport lands (issue 3).
public enum CurlInfo {
    /// libcurl's version string.
    public static var version: String { String(cString: ccurl_version()) }
}
