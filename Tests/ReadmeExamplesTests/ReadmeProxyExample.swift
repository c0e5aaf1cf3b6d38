import Courier
import CourierCurl

/// A transport that goes through the office proxy, except for internal hosts, and
/// connects to a TLS server only if it presents the pinned public key.
func officeTransport(proxy: String, pin: String) throws -> CurlTransport {
    let settings = try ProxySettings(url: proxy, noProxy: ["localhost", ".internal.example"])
    let configuration = CurlTransport.Configuration(
        proxy: settings, pinnedPublicKeys: [try PublicKeyPin(pin)])
    return CurlTransport(configuration: configuration)
}
