import Courier

extension Configuration {
    /// The transport this configuration names, made with its proxy, from the ones the program links.
    ///
    /// ```swift
    /// import CourierCurl
    /// import CourierURLSession
    ///
    /// let configuration = try Configuration.load(from: URL(fileURLWithPath: "courier.json"))
    /// let transport = try configuration.makeTransport(choosingFrom: [CurlTransport.self, URLSessionTransport.self])
    /// ```
    /// - Parameter transports: the transports this program can use.
    /// - Throws: `CourierError` with code `.invalidConfiguration` when none of them has the name,
    ///   or the chosen one cannot use the proxy.
    public func makeTransport(choosingFrom transports: [any NamedTransport.Type]) throws -> any Transport {
        let name = transport.name
        guard let chosen = transports.first(where: { $0.transportName == name }) else {
            throw CourierError(
                .invalidConfiguration,
                "no transport named \(transport.name.debugDescription) in this program; it has "
                    + transports.map { $0.transportName }.joined(separator: ", "))
        }
        return try Self.make(chosen, proxy: proxy)
    }

    /// `type` made with `proxy`, opened from its existential metatype.
    private static func make<Chosen: NamedTransport>(_ type: Chosen.Type, proxy: ProxySettings?) throws
        -> any Transport
    {
        try type.make(proxy: proxy)
    }
}
