import Courier

extension CurlTransport: NamedTransport {
    /// `curl`, as `courier.json` and `COURIER_TRANSPORT` name it.
    public static var transportName: String { "curl" }

    /// A transport with the default settings, through `proxy` when one is given.
    public static func make(proxy: ProxySettings?) -> CurlTransport {
        CurlTransport(configuration: .init(proxy: proxy))
    }
}
