/// A transport that configuration chooses by name, such as `courier.json`'s `"transport": "curl"`.
///
/// Each transport module conforms its own transport, and a program passes the ones it links to
/// `Configuration.makeTransport(choosingFrom:)` (in `CourierConfiguration`): choosing one from a
/// file links no other, and a transport written outside Courier is chosen the same way.
public protocol NamedTransport: Transport {
    /// The name configuration uses, lowercase, such as `curl`.
    static var transportName: String { get }

    /// A transport with its default settings, through `proxy` when one is given.
    /// - Parameter proxy: an explicit proxy; nil follows the environment, where the transport can.
    /// - Throws: `CourierError` with code `.invalidConfiguration` when it cannot use `proxy`.
    static func make(proxy: ProxySettings?) throws -> Self
}
