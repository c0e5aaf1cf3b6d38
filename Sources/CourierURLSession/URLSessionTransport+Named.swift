import Courier

extension URLSessionTransport: NamedTransport {
    /// `urlsession`, as `courier.json` and `COURIER_TRANSPORT` name it.
    public static var transportName: String { "urlsession" }

    /// A transport with the default settings, through `proxy` when one is given.
    /// - Throws: `CourierError` `.invalidConfiguration` for a proxy where URLSession cannot use one.
    public static func make(proxy: ProxySettings?) throws -> URLSessionTransport {
        try URLSessionTransport(configuration: .init(proxy: proxy))
    }
}
